package archtest

// Pure are the decision packages: they compute, and everything they read or
// write goes through an interface another package implements. They may
// import the standard library except its I/O packages, each other, and
// third-party packages that are not I/O libraries.
var Pure = []string{
	"./internal/search",
	"./internal/graph",
	"./internal/tokenize",
	"./internal/textseg",
	"./internal/i18n",
	"./internal/ai",
	"./internal/ai/ratelimit",
	"./internal/ai/offline",
	"./internal/ai/offline/rules",
	"./internal/render/alfred", "./internal/render/scriptfilter",
	"./internal/store",
	"./internal/apperr",
	"./internal/budget",
	"./internal/federate",
	"./internal/agent",
	"./internal/suggest",
	"./internal/setup",
	"./internal/redact",
	"./internal/termsafe",
}

// IO are the packages a pure package must not depend on: the standard
// library's network, file, process and database packages, the libraries
// that talk to a service or a database or draw on a terminal, and every
// package of the module that is not pure.
var IO = []string{
	// standard library
	"net", "net/http/...", "net/rpc/...", "net/smtp", "net/mail",
	"os", "os/exec", "os/signal", "os/user", "io/ioutil", "syscall", "plugin",
	"database/sql/...", "log/syslog",
	// third party
	"google.golang.org/api/...", "google.golang.org/grpc/...", "golang.org/x/oauth2/...",
	"golang.org/x/net/...", "golang.org/x/term", "golang.org/x/sys/...",
	"github.com/jackc/...", "github.com/pgvector/...", "modernc.org/...",
	"github.com/openai/...", "github.com/pterm/...", "github.com/urfave/...",
	"github.com/joho/godotenv", "howett.net/plist", "github.com/keybase/...",
	// the module's own I/O packages: all but the pure ones (see Except)
	"./...",
}

// FrontBinary is the front binary (installed as gds) and the packages only
// it and the keystroke path need.
var FrontBinary = []string{"./cmd/gds-front", "./internal/launcher", "./internal/render/scriptfilter", "./internal/gdshome"}

// FrontForbid are the packages the front binary must not link: by the rule
// below through the module's own imports, and by TestFrontBinaryLinksNoHeavyPackage
// anywhere in its whole dependency set (third-party packages included).
var FrontForbid = []string{
	// the module's heavy packages
	"./internal/app", "./cmd/gds", "./internal/ai/offline", "./internal/ai/openai", "./internal/ai/tokens",
	"./internal/crawl/...", "./internal/extract/...", "./internal/drive/...", "./internal/server/...",
	"./internal/auth/...", "./internal/eval/...", "./internal/doctor/...", "./internal/schedule/...",
	"./internal/store/postgres/...", "./internal/render", "./internal/keystroke", "./internal/store/sqlite/...",
	// what they link: AI client, HTTP API, PDF, Drive/gRPC/protobuf, the kagome dictionary (encoding/gob),
	// HTML parsing, Postgres, the CLI and terminal libraries
	"github.com/openai/...", "github.com/danielgtaylor/huma/...", "github.com/ledongthuc/pdf",
	"google.golang.org/api/...", "google.golang.org/grpc/...", "google.golang.org/protobuf/...",
	"github.com/ikawaha/...", "encoding/gob", "golang.org/x/net/html/...", "net/http",
	"github.com/jackc/...", "github.com/pgvector/...", "github.com/urfave/...", "github.com/pterm/...",
	"github.com/tiktoken-go/...", "golang.org/x/oauth2/...",
	// the SQLite driver: the keystroke server (gds-core) keeps the index open
	"modernc.org/...", "database/sql",
	// the configuration and what loading it links (the .env parser's regular
	// expressions, URL parsing, hashing): the server reads a front's
	// configuration from the environment and directory the front sends
	"./internal/config", "github.com/joho/...", "regexp", "net/url", "crypto/...",
	// the search and what it links (the tokenizer's stemmer and Unicode
	// tables): the front writes Script Filter items (render/scriptfilter),
	// never results
	"./internal/render/alfred", "./internal/search/...", "./internal/store", "./internal/ai", "./internal/tokenize",
	"github.com/kljensen/...", "golang.org/x/text/...", "testing",
}

// Rules is the allowed dependency graph (docs/ARCHITECTURE.md, "Dependency
// rules"). Keep the two in step.
var Rules = []Rule{
	{
		Name: "search ↛ drive",
		Why:  "the loop package holds no Drive client, crawl, extraction or store back end; package search/drivesearch joins search and drive",
		From: []string{"./internal/search"},
		Forbid: []string{"./internal/drive/...", "./internal/crawl/...", "./internal/extract/...",
			"./internal/store/sqlite/...", "./internal/store/postgres/..."},
	},
	{
		Name: "graph ↛ back ends",
		Why:  "GraphRAG's decisions (merging, communities, batching, parsing, packing) and its build/query loops reach the index, the graph storage and the model only through store.GraphStore, narrow interfaces and ai.Provider; app wires the back ends, and token counting comes in as a Counter",
		From: []string{"./internal/graph"},
		Forbid: []string{"./internal/store/sqlite/...", "./internal/store/postgres/...", "./internal/ai/openai/...", "./internal/ai/offline/...",
			"./internal/ai/tokens", "./internal/crawl/...", "./internal/render/..."},
	},
	{
		Name: "drive ↛ crawl",
		Why:  "the Drive API client knows neither the crawl nor the search loop; package crawl/drivesource adapts it to crawl.Source",
		From: []string{"./internal/drive/..."},
		// drivetest is the tests' Drive emulator fixture: the emulator
		// extracts PDF and Office text (internal/extract) as Drive does.
		ExceptFrom: []string{"./internal/drive/drivetest"},
		Forbid: []string{"./internal/crawl/...", "./internal/search/...", "./internal/store/...",
			"./internal/extract/..."},
	},
	{
		Name: "nothing below the application layer imports it",
		Why:  "internal/app wires every back end; a domain package that imported it would pull in all of them and could not be reused by another front end",
		From: []string{"./internal/search/...", "./internal/graph/...", "./internal/store/...", "./internal/ai/...", "./internal/crawl/...",
			"./internal/drive/...", "./internal/extract/...", "./internal/render/...", "./internal/auth/...",
			"./internal/config/...", "./internal/apperr", "./internal/mirror", "./internal/schedule/...", "./internal/eval/...",
			"./internal/doctor/...", "./internal/budget", "./internal/resilient", "./internal/federate/...", "./internal/agent/...",
			"./internal/setup", "./internal/envfile", "./internal/cliflag", "./internal/sysopen", "./internal/interrupt"},
		Forbid: []string{"./internal/app", "./cmd/..."},
	},
	{
		Name:   "the tokenizer stays out of the keystroke path",
		Why:    "tiktoken's compiled-in vocabulary adds ~7 MB to a binary; token counting lives in ai/tokens, which only the modes that count tokens import",
		From:   []string{"./internal/ai", "./internal/ai/offline/...", "./internal/search", "./internal/store/...", "./internal/render/...", "./internal/launcher", "./cmd/gds-front"},
		Forbid: []string{"./internal/ai/tokens", "github.com/tiktoken-go/..."},
	},
	{
		Name:   "the load generator is only an HTTP client",
		Why:    "serveload loads a gds serve from outside, as a client would: through the API, never through the application layer or a store",
		From:   []string{"./internal/serveload"},
		Forbid: []string{"./internal/app", "./internal/server", "./internal/store/...", "./cmd/..."},
	},
	{
		Name:   "the browser driver stays in tests",
		Why:    "chromedp drives a real browser in the web UI's end-to-end test only; the gds binary never starts a browser",
		From:   []string{"./..."},
		Forbid: []string{"github.com/chromedp/..."},
	},
	{
		Name: "the federation's decisions know no transport",
		Why:  "query generation, selection, the kind → fetch mapping and fail-soft decisions are tested without processes; federate/mcphost runs the servers over the MCP SDK, federate/mockserver builds the mocks",
		From: []string{"./internal/federate"},
		Forbid: []string{"github.com/modelcontextprotocol/...", "./internal/federate/mcphost", "./internal/federate/mockserver",
			"./internal/app", "./internal/render/..."},
	},
	{
		Name: "the front binary links only the keystroke path",
		Why: "the installed gds (cmd/gds-front) starts on every Alfred keystroke and runs the package initialisation of all it links before main; " +
			"it answers version itself and a keystroke through the keystroke server's socket (config, JSON, the Alfred renderer), and hands everything else to gds-core",
		From:   FrontBinary,
		Forbid: FrontForbid,
	},
	{
		Name:   "the init wizard's decisions know no front end",
		Why:    "setup's state machine is driven by app's executor; it never reaches Drive, the .env file or a terminal (the pure rule) nor the renderers that ask its questions",
		From:   []string{"./internal/setup"},
		Forbid: []string{"./internal/render/...", "./internal/drive/...", "./internal/envfile", "./internal/config"},
	},
	{
		Name:   "pure packages do no I/O",
		Why:    "decision packages stay testable without a network, a disk or a terminal, and cheap to link",
		From:   Pure,
		Forbid: IO,
		Except: Pure,
	},
}

// SizeLimit caps the non-test Go lines of a package (GoLines).
type SizeLimit struct {
	Dir string // relative to the module root
	Max int
	Why string
}

// SizeLimits keep the CLI thin: cmd/gds is wiring — flags,
// options, one call into internal/app, a renderer — so logic that grows
// there belongs in an internal package.
var SizeLimits = []SizeLimit{
	{Dir: "cmd/gds", Max: 2000, Why: "cmd/gds is wiring only; move logic into internal/app, internal/render or a domain package"},
}

// SourceRules keep reads in one place by what the source says (see
// SourceRule).
var SourceRules = []SourceRule{
	{
		Name: "one terminal-and-locale object",
		Why: "colour, width, terminals and the language are decided once, in main, by internal/iostreams (through internal/i18n's locale rules) " +
			"and passed down through app.Deps; a package that read them itself could disagree with the rest, and its tests would need the process's environment",
		Strings: []string{"NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLUMNS", "TERM", "TERM_PROGRAM", "GDS_HYPERLINKS",
			"LANG", "LC_ALL", "LC_MESSAGES"},
		Calls: []string{"golang.org/x/term.IsTerminal", "golang.org/x/term.GetSize", "github.com/mattn/go-isatty.*", "./internal/i18n.Detect"},
		// i18n states the locale rules; archtest states this rule.
		Owners: []string{"./internal/iostreams", "./internal/i18n", "./internal/archtest"},
		Allow: map[string]string{
			"internal/federate/mcphost/host.go": "passes the locale variables on to the MCP servers it starts; it reads none",
			"internal/reliability/child.go":     "takes the locale variables out of a child gds's environment; it reads none",
			"cmd/gdsbench/realcorpus.go":        "takes the locale variables out of a child gds's environment; it reads none",
			"cmd/gds-drive-emulator/main.go":    "a development server's own messages, in the locale of each call (its tests switch it)",
			"cmd/gds-openai-emulator/main.go":   "a development server's own messages, in the locale of each call (its tests switch it)",
		},
	},
}
