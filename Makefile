# wayfind — build, test and benchmark. `make test` is what CI runs.
GO       ?= go
BIN      := bin/wayfind
BENCH    ?= testdata/bench
FUZZTIME ?= 30s

PREFIX   ?= $(HOME)/.local

.PHONY: build install run test test-agent test-vscode plugin deps ort check vscode bench bench-stale bench-sessions bench-calibrate copy-order bench-agent calibration-data bench-history bench-symbols-gopls bench-lsp bench-symbols bench-content bench-locate bench-scale bench-mcp bench-model soak fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/wayfind

# The binary, shell completions and (printed) the Neovim plugin's path,
# under PREFIX (default ~/.local).
install: build
	install -d "$(PREFIX)/bin" "$(PREFIX)/share/bash-completion/completions" \
		"$(PREFIX)/share/zsh/site-functions" "$(PREFIX)/share/fish/vendor_completions.d"
	install -m 0755 $(BIN) "$(PREFIX)/bin/wayfind"
	"$(PREFIX)/bin/wayfind" completion bash > "$(PREFIX)/share/bash-completion/completions/wayfind"
	"$(PREFIX)/bin/wayfind" completion zsh > "$(PREFIX)/share/zsh/site-functions/_wayfind"
	"$(PREFIX)/bin/wayfind" completion fish > "$(PREFIX)/share/fish/vendor_completions.d/wayfind.fish"
	@echo "installed $(PREFIX)/bin/wayfind (and its bash, zsh and fish completions)"
	@echo "Neovim: put $(CURDIR)/nvim on the runtimepath, then require('wayfind').setup{}"

# make run Q=lspserver [ROOT=dir]
run: build
	./$(BIN) find --root "$(or $(ROOT),.)" --format text "$(or $(Q),main)"

# Installs what the tests and benchmarks need on a fresh Debian machine;
# does nothing when it is all there already.
deps:
	@./scripts/deps.sh

check:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...

# ONNX Runtime for the optional reranker (third_party/, git-ignored).
ort: deps
	@./scripts/ort.sh

test: deps ort check
	$(GO) test -race -count=1 -skip '$(AGENT_TESTS)' ./...
	$(MAKE) --no-print-directory test-agent
	cd vscode-client && npm test --silent
	$(MAKE) --no-print-directory test-vscode

# The hook in the real Claude Code, Codex CLI, Gemini CLI, opencode and
# Copilot CLI, and the MCP server beside it in each (pinned in testdata/clients/,
# installed by make deps from npm), each run headless against the test's
# own scripted model API on 127.0.0.1: no network, a dummy key, an
# isolated HOME (cmd/wayfind/*agent_test.go: AGENT_TESTS, which make
# test's go test skips). CI=true: a missing harness fails.
AGENT_TESTS := ^Test(ClaudeCode|Codex|GeminiHook|GeminiExtension|OpencodeHook|CopilotHook|CopilotPlugin)
test-agent: deps
	CI=true $(GO) test -race -count=1 -run '$(AGENT_TESTS)' ./cmd/wayfind

# The extension in a real VS Code: code-server 4.99.4 (VS Code 1.99.3)
# driven through Debian's Chromium (scripts/vscode-e2e.sh installs both);
# screenshots of every step in vscode-client/e2e/artifacts/.
test-vscode: deps
	./scripts/vscode-e2e.sh

# The Claude Code plugin with its own binary (plugin/bin/wayfind, for a
# machine without wayfind on PATH).
plugin:
	$(GO) build -o plugin/bin/wayfind ./cmd/wayfind

# The VS Code extension, packaged: vscode-client/dist/wayfind.vsix.
vscode: deps
	cd vscode-client && npm run package --silent

bench: deps
	$(GO) run ./cmd/wayfind-bench find -corpora $(BENCH)/corpora -cases $(BENCH)/cases-public.jsonl -scale 250000

# Navigation sessions replayed over the public corpora: ambiguous names
# asked with and without the history (cmd/wayfind-bench/history.go).
bench-history: deps
	$(GO) run ./cmd/wayfind-bench history -corpora $(BENCH)/corpora -cases $(BENCH)/cases-public.jsonl

# Real stale paths (testdata/bench/stale: renames from five repositories'
# own histories) with the repository's history and without it. The logs
# are replayed into repositories with git fast-import, or REPOS=DIR names
# real checkouts (OWNER+NAME) at the recorded HEADs.
STALE := testdata/bench/stale
bench-stale: deps
	$(GO) run ./cmd/wayfind-bench stale -corpora $(STALE)/corpora -cases $(STALE)/real-moves-public.jsonl \
		$(if $(REPOS),-repos $(REPOS),-replay $(STALE)/history-logs) $(ARGS)

# Real sessions replayed from commits (issue 26): the histories of
# testdata/bench/stale replayed, or SESSIONS=name=checkout,… .
bench-sessions: deps
	$(GO) run ./cmd/wayfind-bench sessions $(if $(SESSIONS),-repos $(SESSIONS),-replay $(STALE)/history-logs -corpora $(STALE)/corpora -cases $(STALE)/real-moves-public.jsonl) $(ARGS)

# The calibration of what `resolved` promises (issue 45): real stale
# paths, real broken links, today's files held elsewhere, deleted files
# and real sessions of the held-out repositories of
# testdata/calibration/split.tsv (HALF=tuning for the half rules are
# chosen on). With MIRRORS=DIR (git mirrors or clones, OWNER+NAME[/repo])
# every set runs with its repository's history; without, the names-only
# runs, and the histories of the logs kept in testdata/calibration,
# replayed. ARGS=-answers FILE writes every answer.
bench-calibrate: deps
	$(GO) run ./cmd/wayfind-bench calibrate -half $(or $(HALF),held-out) $(if $(MIRRORS),-mirrors $(MIRRORS)) $(ARGS)

# find's fitted order of a shared name's copies (rank/copyorder.go), fitted
# again on the tuning half's sessions: their rows (the formula's order, so
# that the rows do not depend on the model they fit), then the trees
# written to rerank/copyorder.onnx and its check. FIT_PYTHON is Debian's
# python3, with python3-sklearn and python3-onnx.
FIT_PYTHON ?= /usr/bin/python3
FEATURES ?= /tmp/wayfind-session-features.jsonl
copy-order: deps
	WAYFIND_BENCH_SESSION_FEATURES=$(FEATURES) $(GO) run ./cmd/wayfind-bench calibrate -half tuning -sets sessions -copy-order=false $(if $(MIRRORS),-mirrors $(MIRRORS)) > /dev/null
	$(FIT_PYTHON) scripts/fit-session-order.py --export rerank/copyorder.onnx $(FEATURES)

# The calibration's cases, listings and small logs, made again from
# MIRRORS (not part of make test: it reads whole histories, an hour on
# two cores).
calibration-data:
	@test -n "$(MIRRORS)" || { echo "calibration-data: MIRRORS=DIR (git mirrors or clones, OWNER+NAME[/repo]) is required"; exit 2; }
	python3 scripts/gencalibration.py $(MIRRORS) testdata/calibration --logs 400000

# workspace/symbol beside gopls on golang.org/x/tools (the version gopls
# itself requires, copied from the module cache), and on Python's standard
# library for wayfind alone; queries from universal-ctags
# (cmd/wayfind-bench/gopls.go). gopls is installed into third_party/bin
# once, from the Go module proxy.
GOPLS_VERSION  := v0.23.0
XTOOLS_VERSION := v0.47.1-0.20260707181000-a299dadba899
SYMBOLS_WORK   ?= $(TMPDIR)/wayfind-bench-symbols
TMPDIR         ?= /tmp
bench-symbols-gopls: deps build
	@test -x third_party/bin/gopls || GOBIN=$(CURDIR)/third_party/bin $(GO) install golang.org/x/tools/gopls@$(GOPLS_VERSION)
	@test -f $(SYMBOLS_WORK)/x-tools/go.mod || { \
		d=$$($(GO) mod download -json golang.org/x/tools@$(XTOOLS_VERSION) | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])') && \
		mkdir -p $(SYMBOLS_WORK) && cp -r "$$d" $(SYMBOLS_WORK)/x-tools && chmod -R u+w $(SYMBOLS_WORK)/x-tools && \
		cd $(SYMBOLS_WORK)/x-tools && $(GO) mod download; }
	@test -d $(SYMBOLS_WORK)/python-stdlib || { \
		d=$$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])') && \
		mkdir -p $(SYMBOLS_WORK)/python-stdlib && cp -r "$$d"/. $(SYMBOLS_WORK)/python-stdlib && \
		rm -rf $(SYMBOLS_WORK)/python-stdlib/site-packages && find $(SYMBOLS_WORK)/python-stdlib -name __pycache__ -prune -exec rm -rf {} +; }
	$(GO) run ./cmd/wayfind-bench gopls -gopls third_party/bin/gopls -bin $(BIN) \
		-go $(SYMBOLS_WORK)/x-tools -other Python=$(SYMBOLS_WORK)/python-stdlib $(ARGS)

# The public cases through `wayfind lsp` over stdio, as an editor sends them.
bench-lsp: deps build
	$(GO) run ./cmd/wayfind-bench lsp -bin $(BIN) -corpora $(BENCH)/corpora -cases $(BENCH)/cases-public.jsonl

# The symbol index of the Go source tree beside universal-ctags -R.
bench-symbols: deps build
	$(GO) run ./cmd/wayfind-bench symbols -root $$($(GO) env GOROOT)/src -bin $(BIN) -runs 3

# locate's content search on the largest public corpus, laid out with
# generated text (the corpora are file lists only).
bench-content: deps
	$(GO) run ./cmd/wayfind-bench content -of tc39__test262 -corpora $(BENCH)/corpora

# locate on two real trees on every machine (Go's and Python's standard
# libraries): generated questions (scripts/genlocate.py) beside grep.
bench-locate: deps build
	$(GO) run ./cmd/wayfind-bench locate -trees go=$$($(GO) env GOROOT)/src,python=$$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])') -bin $(BIN) -runs 3 -cli 10

# The monorepo (issue 29): the corpora repeated under team directories at
# SCALE_SIZES files, through `wayfind lsp` cold and warm, beside fzf, and
# the cold start beside find(1)'s walk of the same tree. As root,
# WAYFIND_BENCH_DROP_CACHES=1 also starts one with the kernel's caches
# dropped (the directories read off the disk), beside find(1) likewise.
SCALE_SIZES ?= 56970,250000,1000000
bench-scale: deps build
	$(GO) run ./cmd/wayfind-bench scale -sizes $(SCALE_SIZES) -bin $(BIN) -corpora $(BENCH)/corpora -cases $(BENCH)/cases-public.jsonl

# The hook through the real Claude Code (issue 46): the held-out
# repositories' real stale paths as an agent's Read calls, with the hook
# and without, then the hook's own time beside a process doing nothing.
# MIRRORS=DIR (git mirrors, OWNER+NAME[/repo]) is required; PER= paths a
# repository (default 30).
bench-agent: deps build
	@test -n "$(MIRRORS)" || { echo "bench-agent: MIRRORS=DIR (git mirrors or clones, OWNER+NAME[/repo]) is required"; exit 2; }
	$(GO) run ./cmd/wayfind-bench agent -mirrors $(MIRRORS) -bin $(BIN) -per $(or $(PER),30) $(ARGS)

# What an agent reads: find_files through `wayfind mcp` against a listing.
bench-mcp: deps build
	$(GO) run ./cmd/wayfind-bench mcp -bin $(BIN) -tree $$($(GO) env GOROOT)/src -corpora $(BENCH)/corpora -cases $(BENCH)/cases-public.jsonl

# Every public case without and with the reranker (the tiny test model).
bench-model: deps ort
	$(GO) run ./cmd/wayfind-bench model -model testdata/model -ort-lib third_party/onnxruntime/libonnxruntime.so.1 -corpora $(BENCH)/corpora -cases $(BENCH)/cases-public.jsonl

# One server under mixed load and file churn (SOAK_DURATION, default 5m).
soak: deps
	SOAK_DURATION=$(or $(SOAK_DURATION),5m) $(GO) test -tags soak -run '^TestSoak$$' -count=1 -v -timeout 30m ./lsp

# Each fuzz target for FUZZTIME; `make test` already replays their seeds.
fuzz:
	$(GO) test ./rank -run '^$$' -fuzz '^FuzzParsePath$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./rank -run '^$$' -fuzz '^FuzzParseFind$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./rank -run '^$$' -fuzz '^FuzzEngine$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./rank -run '^$$' -fuzz '^FuzzScorer$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./workspace -run '^$$' -fuzz '^FuzzWildmatch$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./workspace -run '^$$' -fuzz '^FuzzLoadRoot$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./pathlit -run '^$$' -fuzz '^FuzzFind$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./lsp -run '^$$' -fuzz '^FuzzStream$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./lsp -run '^$$' -fuzz '^FuzzParams$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./symbols -run '^$$' -fuzz '^FuzzCacheEntry$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./symbols -run '^$$' -fuzz '^FuzzCacheFile$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./content -run '^$$' -fuzz '^FuzzCacheFile$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./service -run '^$$' -fuzz '^FuzzResolvePath$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s
	$(GO) test ./hook -run '^$$' -fuzz '^FuzzEvent$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s

clean:
	rm -rf bin plugin/bin/wayfind
