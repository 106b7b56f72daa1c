// Package launchd holds the LaunchAgent template that `gds schedule install`
// renders on macOS (internal/schedule fills it in). The template is a
// text/template over schedule.AgentSpec; every string it inserts goes
// through the xml function, so paths with &, < or quotes stay valid XML.
package launchd

import _ "embed"

// CrawlAgentTemplate is the text/template source of the crawl LaunchAgent
// (~/Library/LaunchAgents/dev.gds.crawl.plist).
//
//go:embed crawl.plist.tmpl
var CrawlAgentTemplate string
