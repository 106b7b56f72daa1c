package mockserver

// The mock data: a small company's Project Alpha across Drive, Slack and
// GitHub, with URLs of the shape the real services use. Invented; any
// resemblance to a real workspace is accidental.

type driveFile struct {
	ID, Name, Path, MimeType, Modified, Summary, Text string
}

var driveFiles = []driveFile{
	{"1AlphaDesignDoc9xQ", "Project Alpha design document", "Projects/Alpha", "application/vnd.google-apps.document", "2026-10-02T09:12:00Z",
		"Architecture of Project Alpha: an event-driven ingestion service, Postgres storage and a React dashboard.",
		"Project Alpha design document.\n\nGoals: ingest partner events within 5 seconds and show them on the dashboard.\n" +
			"Architecture: an event-driven ingestion service writes to Postgres; a React dashboard reads through a GraphQL API.\n" +
			"Open questions: retention of raw events (30 or 90 days) and the rollout order of the partner integrations."},
	{"1AlphaRoadmapQ4Zk", "Alpha roadmap Q4", "Projects/Alpha", "application/vnd.google-apps.spreadsheet", "2026-09-20T14:00:00Z",
		"Quarterly roadmap of Project Alpha: milestones for ingestion, dashboard beta and partner launch.",
		"Milestone,Owner,Due\nIngestion GA,Platform team,2026-10-31\nDashboard beta,Web team,2026-11-15\nPartner launch,Biz dev,2026-12-10"},
	{"1BetaBudget2026Lm", "Beta budget 2026", "Finance", "application/vnd.google-apps.spreadsheet", "2026-08-11T08:30:00Z",
		"Budget of Project Beta for 2026 by quarter.", "Project Beta budget. Q1 120k, Q2 140k, Q3 90k, Q4 110k."},
	{"1OnboardingGuideP", "新入社員オンボーディングガイド", "HR", "application/vnd.google-apps.document", "2026-04-01T00:00:00Z",
		"新入社員向けのアカウント発行、研修、経費精算の手順。", "新入社員オンボーディングガイド。初日にアカウントを発行し、2 週目に研修を行います。経費精算は月末締めです。"},
	{"1IncidentPostmort", "Incident postmortem: ingestion outage", "Projects/Alpha/Incidents", "application/vnd.google-apps.document", "2026-10-28T18:45:00Z",
		"Postmortem of the 40-minute Alpha ingestion outage caused by a full Postgres disk.",
		"On 2026-10-27 the Alpha ingestion service stopped for 40 minutes: the Postgres disk filled up with WAL files. Action items: disk alerts at 80%, WAL archiving."},
}

type slackMessage struct {
	MsgID, UserID, UserName, RealName, Channel, ThreadTs, Text, Time string
}

var slackMessages = []slackMessage{
	{"1761900000.123456", "U04ALICE01", "alice", "Alice Tanaka", "#proj-alpha", "", "Design review of Project Alpha moved to Thursday; the design doc is in Drive under Projects/Alpha.", "2026-10-31T09:20:00Z"},
	{"1761900300.223344", "U04BOBBY02", "bob", "Bob Sato", "#proj-alpha", "1761900000.123456", "Thanks! I added the open question on event retention to the Alpha design doc.", "2026-10-31T09:25:00Z"},
	{"1761640000.555000", "U04CAROL03", "carol", "Carol Ito", "#incidents", "", "Alpha ingestion is down, Postgres disk full. Investigating. Contact carol@example.com.", "2026-10-28T08:26:40Z"},
	{"1761642400.556000", "U04CAROL03", "carol", "Carol Ito", "#incidents", "1761640000.555000", "Ingestion back up after WAL cleanup; postmortem to follow.", "2026-10-28T09:06:40Z"},
	{"1760000000.000100", "U04DAVE004", "dave", "Dave Kato", "#general", "", "Reminder: expense reports for September are due on Friday.", "2026-10-09T09:53:20Z"},
}

// slackCSVHeader is slack-mcp-server's column set for messages (its
// Message struct marshalled by gocsv; Channel is "#name" in search results).
const slackCSVHeader = "MsgID,UserID,UserName,RealName,Channel,ThreadTs,Text,Time,Cursor"

type githubIssue struct {
	Owner, Repo string
	Number      int
	Title, Body string
	State       string
	PR          bool
	Comments    []string
	Created     string
}

var githubIssues = []githubIssue{
	{"acme", "alpha", 42, "Ingestion drops events when Postgres disk is full", "When the disk fills up the ingestion service silently drops events. See the postmortem in Drive.", "open", false,
		[]string{"We should alert at 80% disk usage.", "WAL archiving is being set up in #57."}, "2026-10-28T10:00:00Z"},
	{"acme", "alpha", 57, "Archive WAL files to object storage", "Implements WAL archiving so the Postgres disk no longer fills up (fixes #42).", "open", true,
		[]string{"Looks good, please add a runbook entry."}, "2026-10-29T12:00:00Z"},
	{"acme", "alpha", 31, "Design: event retention period for Project Alpha", "Decide between 30 and 90 days of raw event retention, see the Alpha design document.", "closed", false,
		[]string{"Going with 30 days raw, 1 year aggregated."}, "2026-09-15T08:00:00Z"},
	{"acme", "dashboard", 12, "Dashboard beta: partner filter", "Add a partner filter to the Alpha dashboard beta.", "open", false, nil, "2026-10-10T08:00:00Z"},
	{"acme", "handbook", 3, "Update onboarding checklist", "The onboarding guide should mention the expense deadline.", "closed", false, nil, "2026-04-02T08:00:00Z"},
}

type githubFile struct {
	Owner, Repo, Path, Content string
}

var githubFiles = []githubFile{
	{"acme", "alpha", "docs/design.md", "# Project Alpha design\n\nEvent-driven ingestion into Postgres; React dashboard over GraphQL."},
	{"acme", "alpha", "docs/runbook.md", "# Alpha runbook\n\nDisk full: archive WAL files, then restart ingestion."},
}
