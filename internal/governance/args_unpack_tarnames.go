package governance

import (
	"archive/tar"
	"fmt"
)

// A tar member may be written under a name its header does not hold, and
// GNU tar and bsdtar read some headers otherwise than Go's archive/tar:
//
//   - GNU tar reads a header of the Solaris type 'X' as a pax extended
//     header ('x') whose path record names the next member; Go reads it as
//     a file, and the next member keeps its plain name. Every type other
//     than those both read alike (a file, a link, a symbolic link, a
//     device, a directory, a FIFO, a contiguous or sparse file, and the pax
//     and GNU long-name headers Go consumes) makes the names unknown: the
//     volume label 'V', the multi-volume 'M', the old GNU long names 'N',
//     the dump directory 'D' (whose list GNU tar -G uses to delete files)
//     and the vendor types 'A' to 'Z'.
//   - a pax record names a member: GNU tar takes GNU.sparse.name as its
//     name, ahead of path, where Go takes it only beside other sparse
//     records, and a global header ('g') names every member after it.
//     Every record that names a path (path, GNU.sparse.name,
//     GNU.volume.filename, and linkpath, a link's target, where a write
//     through the link goes), in the member's header or a global one, is
//     decided as a name the member may be written under; a GNU.dumpdir
//     record makes the names unknown.

// tarReadAlike are the member types Go's archive/tar and GNU tar read
// alike, by the name the header (with the pax and GNU long-name headers
// before it) gives.
var tarReadAlike = map[byte]bool{
	tar.TypeReg: true, tar.TypeRegA: true, tar.TypeLink: true, tar.TypeSymlink: true, tar.TypeChar: true,
	tar.TypeBlock: true, tar.TypeDir: true, tar.TypeFifo: true, tar.TypeCont: true, tar.TypeGNUSparse: true,
}

// tarNameRecords are the pax records that name a path a member may be
// written under, by GNU tar or bsdtar, with a link's target (linkpath),
// decided so too.
var tarNameRecords = []string{"path", "linkpath", "GNU.sparse.name", "GNU.volume.filename"}

// tarMemberNames returns every name the member h (as Go's archive/tar
// returns it) may be written under, or why they cannot be known: its
// name and the name records of its pax headers; for a global pax header,
// only its name records, which name the members after it.
func tarMemberNames(h *tar.Header) ([]string, string) {
	global := h.Typeflag == tar.TypeXGlobalHeader
	if !global && !tarReadAlike[h.Typeflag] {
		return nil, fmt.Sprintf("a member (%s) is of type %q, which tar reads otherwise than the bridge", h.Name, h.Typeflag)
	}
	if _, ok := h.PAXRecords["GNU.dumpdir"]; ok {
		return nil, "a member (" + h.Name + ") holds a dump directory, whose list tar may delete files by"
	}
	var names []string
	if !global {
		names = append(names, h.Name)
	}
	for _, k := range tarNameRecords {
		if v, ok := h.PAXRecords[k]; ok {
			names = append(names, v)
		}
	}
	return uniqueNames(names), ""
}
