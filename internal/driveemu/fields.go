package driveemu

import (
	"fmt"
	"strings"
)

// fieldMask is a parsed `fields` partial-response selector. A nil sub-mask
// selects the whole value; the key "*" selects every key.
type fieldMask map[string]fieldMask

// parseFields parses the partial-response syntax: comma-separated paths,
// `a/b` for nesting and `a(b,c)` for sub-selections, `*` for everything.
func parseFields(s string) (fieldMask, error) {
	p := &fieldParser{s: strings.ReplaceAll(s, " ", "")}
	m := fieldMask{}
	if err := p.list(m); err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at %d", p.s[p.i], p.i)
	}
	return m, nil
}

type fieldParser struct {
	s string
	i int
}

func (p *fieldParser) list(m fieldMask) error {
	for {
		if err := p.item(m); err != nil {
			return err
		}
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		return nil
	}
}

func (p *fieldParser) name() (string, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte(",()/", p.s[p.i]) < 0 {
		p.i++
	}
	if p.i == start {
		return "", fmt.Errorf("empty field name at %d", start)
	}
	return p.s[start:p.i], nil
}

func (p *fieldParser) item(m fieldMask) error {
	n, err := p.name()
	if err != nil {
		return err
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '/':
		p.i++
		sub, ok := m[n]
		if !ok || sub == nil {
			if ok && sub == nil {
				// already whole; parse and discard the narrower selection
				return p.item(fieldMask{})
			}
			sub = fieldMask{}
			m[n] = sub
		}
		return p.item(sub)
	case p.i < len(p.s) && p.s[p.i] == '(':
		p.i++
		sub, ok := m[n]
		if ok && sub == nil {
			sub = fieldMask{}
			if err := p.list(sub); err != nil {
				return err
			}
		} else {
			if !ok {
				sub = fieldMask{}
				m[n] = sub
			}
			if err := p.list(sub); err != nil {
				return err
			}
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return fmt.Errorf("missing ) at %d", p.i)
		}
		p.i++
		return nil
	}
	m[n] = nil
	return nil
}

// validate checks the mask's keys against a schema: schema maps a key to
// the schema of its value (nil when not checked further).
func (m fieldMask) validate(schema map[string]map[string]bool, top string) error {
	allowed := schema[top]
	for k, sub := range m {
		if k == "*" {
			continue
		}
		if allowed != nil && !allowed[k] {
			return fmt.Errorf("invalid field selection %s", k)
		}
		if sub != nil {
			if _, ok := schema[k]; ok {
				if err := sub.validate(schema, k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// apply keeps only the selected keys of v (maps and slices of maps).
func (m fieldMask) apply(v any) any {
	if m == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if _, all := m["*"]; all {
			return x
		}
		out := map[string]any{}
		for k, sub := range m {
			if val, ok := x[k]; ok {
				out[k] = sub.apply(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = m.apply(e)
		}
		return out
	}
	return v
}

func setOf(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}

// fileFields are the File resource's fields in drive/v3 (discovery rev 2026).
var fileFields = setOf(`appProperties capabilities clientEncryptionDetails contentHints contentRestrictions
copyRequiresWriterPermission createdTime description downloadRestrictions driveId explicitlyTrashed exportLinks
fileExtension folderColorRgb fullFileExtension hasAugmentedPermissions hasThumbnail headRevisionId iconLink id
imageMediaMetadata inheritedPermissionsDisabled isAppAuthorized kind labelInfo lastModifyingUser linkShareMetadata
md5Checksum mimeType modifiedByMe modifiedByMeTime modifiedTime name originalFilename ownedByMe owners parents
permissionIds permissions properties quotaBytesUsed resourceKey sha1Checksum sha256Checksum shared sharedWithMeTime
sharingUser shortcutDetails size spaces starred teamDriveId thumbnailLink thumbnailVersion trashed trashedTime
trashingUser version videoMediaMetadata viewedByMe viewedByMeTime viewersCanCopyContent webContentLink webViewLink
writersCanShare`)

var driveFields = setOf(`backgroundImageFile backgroundImageLink capabilities colorRgb createdTime hidden id kind
name orgUnitId restrictions themeId`)

var changeFields = setOf(`changeType drive driveId file fileId kind removed teamDrive teamDriveId time type`)

var schemas = map[string]map[string]bool{
	"FileList":       setOf("files incompleteSearch kind nextPageToken"),
	"File":           fileFields,
	"files":          fileFields,
	"DriveList":      setOf("drives kind nextPageToken"),
	"ChangeList":     setOf("changes kind newStartPageToken nextPageToken"),
	"changes":        changeFields,
	"file":           fileFields,
	"StartPageToken": setOf("kind startPageToken"),
	"Drive":          driveFields,
	"drives":         driveFields,
	"About": setOf(`appInstalled canCreateDrives canCreateTeamDrives driveThemes exportFormats folderColorPalette
importFormats kind maxImportSizes maxUploadSize storageQuota teamDriveThemes user`),
}
