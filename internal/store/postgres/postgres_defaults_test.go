package postgres

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// TestConnectionDefaults: a connect timeout, a statement timeout and a pool
// size by default; each kept when the URL sets its own.
func TestConnectionDefaults(t *testing.T) {
	tests := []struct {
		url       string
		connect   time.Duration
		statement string
		options   string
		maxConns  int32
	}{
		{"postgres://u@db:5432/gds", DefaultConnectTimeout, "300000", "", DefaultMaxConns},
		{"postgres://u@db:5432/gds?connect_timeout=3&statement_timeout=1000&pool_max_conns=2", 3 * time.Second, "1000", "", 2},
		{"postgres://u@db:5432/gds?options=-c%20statement_timeout%3D5s", DefaultConnectTimeout, "", "-c statement_timeout=5s", DefaultMaxConns},
		{"host=db user=u dbname=gds connect_timeout=7", 7 * time.Second, "300000", "", DefaultMaxConns},
	}
	for _, tt := range tests {
		cfg, err := pgxpool.ParseConfig(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		applyDefaults(cfg, tt.url)
		rp := cfg.ConnConfig.RuntimeParams
		if cfg.ConnConfig.ConnectTimeout != tt.connect || rp["statement_timeout"] != tt.statement || rp["options"] != tt.options || cfg.MaxConns != tt.maxConns {
			t.Errorf("%s: connect %v statement %q options %q max %d; want %v %q %q %d", tt.url,
				cfg.ConnConfig.ConnectTimeout, rp["statement_timeout"], rp["options"], cfg.MaxConns, tt.connect, tt.statement, tt.options, tt.maxConns)
		}
	}
}
