package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"wayfind/mcpserver"
	"wayfind/service"
	"wayfind/session"
	"wayfind/workspace"
)

// serveMCP runs the MCP server on stdio until the client goes away.
func serveMCP(ctx context.Context, args []string, stderr io.Writer) int {
	var roots listFlag
	var quiet bool
	var model service.ModelConfig
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&roots, "root", "")
	fs.BoolVar(&quiet, "quiet", false, "")
	modelFlags(fs, &model)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "wayfind mcp: bad arguments %q (flags: --root DIR, --quiet, --model-dir DIR, --precision P, --ort-lib FILE, --topk N)\n", strings.Join(args, " "))
		return exitInput
	}
	logf := func(format string, a ...any) {
		if !quiet {
			fmt.Fprintf(stderr, "wayfind mcp: "+format+"\n", a...)
		}
	}
	if len(roots) > 0 {
		if _, err := workspace.CleanRoots(roots); err != nil {
			fmt.Fprintf(stderr, "wayfind mcp: %v\n", err)
			return exitInput
		}
	}
	serverProcs()
	sess := session.New(session.Options{Watch: true, Logf: logf})
	defer sess.Close()
	if len(roots) > 0 {
		sess.SetRoots(roots)
	} else {
		// The current directory until (unless) the client names its roots.
		sess.SetRoots([]string{"."})
	}
	service.LoadModel(sess, model, logf)
	server := mcpserver.New(sess, mcpserver.Options{Version: Version, ClientRoots: len(roots) == 0, Logf: logf})
	if err := server.Run(ctx, &mcpserver.Stdio{In: os.Stdin, Out: os.Stdout}); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		logf("%v", err)
		return 1
	}
	return 0
}
