// Package acpwire is the bridge's wire layer: it frames newline-delimited
// JSON-RPC in both directions, routes each message through middleware in
// arrival order, writes through one ordered writer per peer, keeps every
// request's single response accounted for, manages the agent process, and
// records transcripts.
//
// A message no middleware changes leaves with its original bytes: the bridge
// decodes only the JSON-RPC envelope (id, method, and where params, result and
// error sit), never the whole message. Middleware that rewrites a message
// patches the bytes it changes (Message.Patch) and keeps the rest.
//
// Typical use, from cmd/acp-bridge:
//
//	b := acpwire.New(acpwire.Options{Logger: logger, Record: recFile})
//	b.UseNonRetaining(manifest.Mask(m, b, manifest.MaskOptions{}))
//	b.Use(enforcer.Middleware(), pipeline.Middleware())
//	agent, err := acpwire.StartAgent(acpwire.AgentCommand{Path: "npx", Args: args, Stderr: os.Stderr})
//	...
//	err = b.Run(ctx, acpwire.Endpoint{In: os.Stdin, Out: os.Stdout}, agent)
//
// A middleware sees a message, then passes it on (next.Handle), replaces it,
// drops it, or answers it through the Bridge, which implements Sender:
//
//	func Deny(s acpwire.Sender) acpwire.Middleware {
//		return func(next acpwire.Handler) acpwire.Handler {
//			return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
//				if m.IsRequest("terminal/create") {
//					return s.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "denied"))
//				}
//				return next.Handle(ctx, m)
//			})
//		}
//	}
//
// Responses carry the request they answer in Message.Request, so a
// middleware can act on "the response to fs/read_text_file" (m.IsResponseTo).
//
// Middleware added with Use may keep messages as long as it likes: the bytes
// of a message are never written to again. Middleware that keeps nothing
// once its Handle returns is added with UseNonRetaining; while all of it is,
// the bridge reuses its read blocks, which takes the garbage collector out
// of the forwarding path.
package acpwire
