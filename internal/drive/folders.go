package drive

import (
	"context"
	"slices"
	"strings"

	drivev3 "google.golang.org/api/drive/v3"
)

// MyDriveRoot is the alias of the user's My Drive root folder.
const MyDriveRoot = "root"

// MaxFolderMatches bounds the folders FindFolders returns.
const MaxFolderMatches = 200

// FolderEntry is a folder offered by `gds init`'s folder picker: a Drive
// folder, or the root of a Shared drive.
type FolderEntry struct {
	ID          string
	Name        string
	DriveID     string // the Shared drive, "" in My Drive
	SharedDrive bool   // the entry is a Shared drive's root
}

// errStopList ends a listing early.
type errStopList struct{}

func (errStopList) Error() string { return "enough folders" }

// ChildFolders lists the folders directly inside parentID (a folder, a
// Shared drive's ID, or MyDriveRoot), trashed ones left out, sorted by name.
func (c *Client) ChildFolders(ctx context.Context, parentID string) ([]FolderEntry, error) {
	return c.folders(ctx, "list folders in "+parentID, And(IsFolder(), In(parentID, FieldParents), NotTrashed()), 0)
}

// FindFolders lists up to MaxFolderMatches folders, in My Drive and the
// Shared drives, whose name contains name (Drive's `name contains`: a
// prefix match on words), sorted by name. The name is quoted and escaped
// in the query, whatever it holds.
func (c *Client) FindFolders(ctx context.Context, name string) ([]FolderEntry, error) {
	return c.folders(ctx, "find folders", And(IsFolder(), NameContains(name), NotTrashed()), MaxFolderMatches)
}

func (c *Client) folders(ctx context.Context, op string, q Query, limit int) ([]FolderEntry, error) {
	var out []FolderEntry
	var st WalkStats
	err := c.listOp(ctx, op, q, &st, func(f *drivev3.File) error {
		out = append(out, FolderEntry{ID: f.Id, Name: f.Name, DriveID: f.DriveId})
		if limit > 0 && len(out) >= limit {
			return errStopList{}
		}
		return nil
	})
	if err != nil && err != (errStopList{}) {
		return nil, err
	}
	sortFolders(out)
	return out, nil
}

// SharedDrives lists the Shared drives the user can see (drives.list),
// sorted by name.
func (c *Client) SharedDrives(ctx context.Context) ([]FolderEntry, error) {
	var out []FolderEntry
	token := ""
	for {
		var res *drivev3.DriveList
		err := c.retry.doMeta(ctx, "list shared drives", func(ctx context.Context) error {
			call := c.svc.Drives.List().PageSize(100).Fields("nextPageToken,drives(id,name)")
			if token != "" {
				call = call.PageToken(token)
			}
			var err error
			res, err = call.Context(ctx).Do()
			return err
		})
		if err != nil {
			return nil, err
		}
		for _, d := range res.Drives {
			out = append(out, FolderEntry{ID: d.Id, Name: d.Name, DriveID: d.Id, SharedDrive: true})
		}
		if res.NextPageToken == "" {
			break
		}
		token = res.NextPageToken
	}
	sortFolders(out)
	return out, nil
}

func sortFolders(fs []FolderEntry) {
	slices.SortStableFunc(fs, func(a, b FolderEntry) int {
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}
