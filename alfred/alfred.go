// Package alfred holds the source of the gds Alfred workflow (info.plist,
// icon.png), embedded so that `gds alfred workflow` and `gds alfred
// install` can build the .alfredworkflow package from the binary alone
// (internal/alfredpkg). The Script Filter runs `gds alfred filter`.
package alfred

import "embed"

// BundleID identifies the gds workflow in Alfred (`gds doctor` looks for
// it among the installed workflows).
const BundleID = "dev.gds.alfred"

// Keyword is the Script Filter keyword.
const Keyword = "gd"

// VersionPlaceholder in info.plist is replaced by the gds version when the
// package is built.
const VersionPlaceholder = "__GDS_VERSION__"

// Source is the workflow source: info.plist and icon.png at its root.
//
//go:embed info.plist icon.png
var Source embed.FS
