package auth

import "time"

// An OAuth app whose publishing status is "Testing" (every new app on the
// Google Auth Platform starts there) gets refresh tokens that Google
// expires 7 days after the consent: the next refresh fails with
// invalid_grant. gds has no shared OAuth client — every sign-in uses the
// user's own "Desktop app" client — so every new setup meets this unless
// the app is published ("In production") or internal to a Workspace.
//
// Google offers no API that tells a client its app's publishing status,
// so gds infers it (TestingRisk):
//
//   - a refresh that succeeded 7 days or more after the sign-in proves the
//     app is not in Testing (such a refresh token would have expired):
//     no warning, and a later invalid_grant gets the generic message;
//   - otherwise a sign-in 6 days old or older is likely to expire: doctor
//     warns a day ahead, naming the date;
//   - an invalid_grant 7 days or more after the sign-in, with no such
//     refresh on record, is explained as the Testing expiry (the other
//     causes — revoked access, a changed password, six months unused —
//     are named too, since they cannot be told apart by the error code).
const (
	TestingRefreshLifetime = 7 * 24 * time.Hour
	TestingWarnAge         = 6 * 24 * time.Hour
)

// Testing is the inference about one stored sign-in.
type Testing struct {
	Likely  bool          // the app is likely in Testing and the sign-in is old enough to matter
	Age     time.Duration // since the sign-in
	Expires time.Time     // when a Testing app's refresh token expires (sign-in + 7 days)
	Expired bool          // Likely and Expires has passed
}

// TestingRisk applies the rule above to a sign-in at obtained whose last
// successful refresh was at refreshed (zero: none recorded), at now.
// A zero obtained (an old record) gives no inference.
func TestingRisk(obtained, refreshed, now time.Time) Testing {
	if obtained.IsZero() {
		return Testing{}
	}
	t := Testing{Age: now.Sub(obtained), Expires: obtained.Add(TestingRefreshLifetime)}
	if !refreshed.IsZero() && refreshed.Sub(obtained) >= TestingRefreshLifetime {
		return t // proven published
	}
	t.Likely = t.Age >= TestingWarnAge
	t.Expired = t.Likely && !now.Before(t.Expires)
	return t
}

// Days is the age in whole days.
func (t Testing) Days() int { return int(t.Age / (24 * time.Hour)) }
