package main

import (
	"fmt"
	"io"
	"strings"
)

// The commands and their flags, for help and shell completion alike.
var (
	commands = []string{"find", "resolve", "locate", "symbols", "index", "lsp", "mcp", "hook", "history", "daemon", "completion", "help", "version"}
	common   = []string{"--root", "--limit", "--format", "--quiet", "--verbose", "--help"}
	flagsOf  = map[string][]string{
		"find":    {"--exact", "--threshold", "--kind", "--impl", "--current", "--model-dir", "--precision", "--ort-lib", "--topk"},
		"resolve": {"--from", "--link", "--current", "--history", "--model-dir", "--precision", "--ort-lib", "--topk"},
		"locate":  {"--min-confidence", "--model-dir", "--precision", "--ort-lib", "--topk"},
		"symbols": {"--exact", "--max-file-bytes"},
		"index":   {"--max-file-bytes"},
		"mcp":     {"--root", "--quiet", "--model-dir", "--precision", "--ort-lib", "--topk", "--help"},
		"lsp":     {"--stdio", "--help"},
		"hook":    {"install", "uninstall", "--user", "--project", "--settings", "--help"},
		"history": {"--root", "--help"},
		"daemon":  {"--root", "--help"},
	}
)

// completion writes the completion script of shell (bash, zsh or fish).
func completion(shell string, w io.Writer) error {
	var cases strings.Builder
	switch shell {
	case "bash":
		for _, c := range commands {
			fmt.Fprintf(&cases, "    %s) opts=%q ;;\n", c, strings.Join(flagsFor(c), " "))
		}
		fmt.Fprintf(w, `# bash completion for wayfind (wayfind completion bash)
_wayfind() {
  local cur=${COMP_WORDS[COMP_CWORD]} opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W %q -- "$cur"))
    return
  fi
  case ${COMP_WORDS[1]} in
%s    *) opts="" ;;
  esac
  case $cur in
    -*) COMPREPLY=($(compgen -W "$opts" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}
complete -F _wayfind wayfind
`, strings.Join(commands, " "), cases.String())
	case "zsh":
		for _, c := range commands {
			fmt.Fprintf(&cases, "    %s) _values 'flag' %s ;;\n", c, quoteAll(flagsFor(c)))
		}
		fmt.Fprintf(w, `#compdef wayfind
# zsh completion for wayfind (wayfind completion zsh)
_wayfind() {
  if (( CURRENT == 2 )); then
    _values 'command' %s
    return
  fi
  if [[ $words[CURRENT] == -* ]]; then
    case $words[2] in
%s    esac
  else
    _files
  fi
}
compdef _wayfind wayfind
`, quoteAll(commands), cases.String())
	case "fish":
		fmt.Fprintf(w, "# fish completion for wayfind (wayfind completion fish)\ncomplete -c wayfind -f -n __fish_use_subcommand -a %q\n", strings.Join(commands, " "))
		for _, c := range commands {
			for _, f := range flagsFor(c) {
				fmt.Fprintf(w, "complete -c wayfind -n '__fish_seen_subcommand_from %s' -l %s\n", c, strings.TrimPrefix(f, "--"))
			}
		}
	default:
		return inputErr("completion takes bash, zsh or fish, not " + fmt.Sprintf("%q", shell))
	}
	return nil
}

func flagsFor(cmd string) []string {
	switch cmd {
	case "find", "resolve", "locate", "symbols", "index":
		return append(append([]string{}, common...), flagsOf[cmd]...)
	}
	return flagsOf[cmd]
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, " ")
}
