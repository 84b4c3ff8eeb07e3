module github.com/acp-bridge/acp-bridge

go 1.26.8
