package graph

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// ringOfCliques is n cliques of k entities, each joined to the next by one
// edge; entity i of clique c comes from chunk "f#c".
func ringOfCliques(n, k int) ([]store.GraphEntity, []store.GraphRelationship) {
	var ents []store.GraphEntity
	var rels []store.GraphRelationship
	id := func(c, i int) string { return fmt.Sprintf("e%02d_%d", c, i) }
	for c := range n {
		for i := range k {
			ents = append(ents, store.GraphEntity{ID: id(c, i), Name: id(c, i), ChunkIDs: []string{fmt.Sprintf("f#%d", c)}})
			for j := i + 1; j < k; j++ {
				rels = append(rels, store.GraphRelationship{ID: "r" + id(c, i) + id(c, j), Source: id(c, i), Target: id(c, j), Weight: 1})
			}
		}
		rels = append(rels, store.GraphRelationship{ID: "r" + id(c, 0) + id((c+1)%n, 1), Source: id(c, 0), Target: id((c+1)%n, 1), Weight: 1})
	}
	return ents, rels
}

func TestCommunitiesTwoCliques(t *testing.T) {
	ents, rels := ringOfCliques(2, 4)
	ents = append(ents, store.GraphEntity{ID: "lonely", ChunkIDs: []string{"g#0"}}) // no relationship: in no community
	comms := Communities(ents, rels, MaxClusterSize, Seed)
	if len(comms) != 2 {
		t.Fatalf("got %d communities, want the 2 cliques: %+v", len(comms), comms)
	}
	for i, c := range comms {
		if c.ID != fmt.Sprint(i) || c.Level != 0 || c.Parent != "" || len(c.EntityIDs) != 4 {
			t.Errorf("community %d = %+v", i, c)
		}
		if c.Weight != 1 {
			t.Errorf("community %s weight = %d, want 1 (its entities come from one chunk)", c.ID, c.Weight)
		}
		if len(c.RelationshipIDs) != 6 {
			t.Errorf("community %s has %d relationships, want the clique's 6", c.ID, len(c.RelationshipIDs))
		}
		if slices.Contains(c.EntityIDs, "lonely") {
			t.Errorf("an entity without relationships is in community %s", c.ID)
		}
	}
}

func TestCommunitiesSplitsLargeOnes(t *testing.T) {
	// 30 five-cliques in a ring: modularity merges neighbouring cliques
	// (its resolution limit), so with a maximum of 5 the large level-0
	// communities must be split again below.
	ents, rels := ringOfCliques(30, 5)
	const maxSize = 5
	comms := Communities(ents, rels, maxSize, Seed)
	byID := map[string]store.GraphCommunity{}
	levels := map[int]int{}
	large := 0
	for _, c := range comms {
		byID[c.ID] = c
		levels[c.Level]++
	}
	for _, c := range comms {
		if len(c.EntityIDs) < 2 {
			t.Errorf("community %s has %d entities", c.ID, len(c.EntityIDs))
		}
		if c.Level == 0 && len(c.EntityIDs) > maxSize {
			large++
		}
		if c.Level > 0 {
			p, ok := byID[c.Parent]
			if !ok || p.Level != c.Level-1 {
				t.Fatalf("community %s (level %d) has parent %q at the wrong level", c.ID, c.Level, c.Parent)
			}
			for _, e := range c.EntityIDs {
				if !slices.Contains(p.EntityIDs, e) {
					t.Errorf("community %s holds %s, which its parent %s does not", c.ID, e, p.ID)
				}
			}
		}
	}
	if large == 0 || levels[1] == 0 {
		t.Fatalf("levels = %v, %d large level-0 communities: want large ones split at level 1", levels, large)
	}
	for _, c := range comms {
		if c.Level == 0 && len(c.EntityIDs) > maxSize {
			children := 0
			for _, d := range comms {
				if d.Parent == c.ID {
					children++
				}
			}
			if children < 2 {
				t.Errorf("community %s of %d entities has %d children", c.ID, len(c.EntityIDs), children)
			}
		}
	}
	// Numbered by level, then size.
	for i := 1; i < len(comms); i++ {
		a, b := comms[i-1], comms[i]
		if a.Level > b.Level || a.Level == b.Level && len(a.EntityIDs) < len(b.EntityIDs) {
			t.Fatalf("communities out of order at %d: %+v then %+v", i, a, b)
		}
	}
}

func TestCommunitiesDeterministic(t *testing.T) {
	ents, rels := ringOfCliques(20, 4)
	a := Communities(ents, rels, 6, Seed)
	// The same graph given in another order gives the same communities.
	slices.Reverse(ents)
	slices.Reverse(rels)
	b := Communities(ents, rels, 6, Seed)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Communities differ between two runs with the same seed")
	}
}

func TestCommunitiesSignatureFollowsDescriptions(t *testing.T) {
	ents, rels := ringOfCliques(2, 3)
	a := Communities(ents, rels, MaxClusterSize, Seed)
	ents[0].Description = "changed"
	b := Communities(ents, rels, MaxClusterSize, Seed)
	changed := 0
	for _, c := range a {
		if !slices.ContainsFunc(b, func(d store.GraphCommunity) bool { return d.Signature == c.Signature }) {
			changed++
		}
	}
	if changed != 1 {
		t.Fatalf("%d signatures changed after one entity's description changed, want 1", changed)
	}
}
