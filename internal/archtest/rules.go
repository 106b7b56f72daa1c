package archtest

// Pure are the decision packages: they compute, and everything they read or
// write goes through an interface another package implements. They may
// import the standard library except its I/O packages, each other, and
// third-party packages that are not I/O libraries.
var Pure = []string{
	"./internal/search",
	"./internal/tokenize",
	"./internal/i18n",
	"./internal/ai",
	"./internal/ai/offline",
	"./internal/store",
	"./internal/apperr",
	"./internal/agent",
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
		Name: "drive ↛ crawl",
		Why:  "the Drive API client knows neither the crawl nor the search loop; package crawl/drivesource adapts it to crawl.Source",
		From: []string{"./internal/drive/..."},
		Forbid: []string{"./internal/crawl/...", "./internal/search/...", "./internal/store/...",
			"./internal/extract/..."},
	},
	{
		Name: "nothing below the application layer imports it",
		Why:  "internal/app wires every back end; a domain package that imported it would pull in all of them and could not be reused by another front end",
		From: []string{"./internal/search/...", "./internal/store/...", "./internal/ai/...", "./internal/crawl/...",
			"./internal/drive/...", "./internal/extract/...", "./internal/render/...", "./internal/auth/...",
			"./internal/config/...", "./internal/apperr", "./internal/mirror", "./internal/schedule/...", "./internal/eval/...",
			"./internal/doctor/...", "./internal/agent/..."},
		Forbid: []string{"./internal/app", "./cmd/..."},
	},
	{
		Name:   "the tokenizer stays out of the keystroke path",
		Why:    "tiktoken's compiled-in vocabulary adds ~7 MB to a binary; token counting lives in ai/tokens, which only the modes that count tokens import",
		From:   []string{"./internal/ai", "./internal/ai/offline", "./internal/search", "./internal/store/...", "./internal/render/..."},
		Forbid: []string{"./internal/ai/tokens", "github.com/tiktoken-go/..."},
	},
	{
		Name:   "pure packages do no I/O",
		Why:    "decision packages stay testable without a network, a disk or a terminal, and cheap to link",
		From:   Pure,
		Forbid: IO,
		Except: Pure,
	},
}
