package migrations

import "embed"

// Postgres holds the migrations of the Postgres + pgvector store under
// postgres/. They use unqualified names: the store applies them with the
// target schema first on the search_path, after creating the vector
// extension (which therefore lives outside that schema, normally in public).
//
//go:embed postgres/*.sql
var Postgres embed.FS
