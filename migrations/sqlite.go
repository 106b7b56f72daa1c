// Package migrations embeds the versioned SQL schema files of gds's index
// back ends. Files are named NNNN_description.sql and applied in order of
// their number; each file is applied once, in one transaction, and recorded
// in the gds_schema_migrations table.
package migrations

import "embed"

// SQLite holds the migrations of the embedded SQLite store under sqlite/.
//
//go:embed sqlite/*.sql
var SQLite embed.FS
