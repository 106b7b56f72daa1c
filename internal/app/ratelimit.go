package app

import "github.com/gds-cli/gds/internal/ai/ratelimit"

// SetMaxRPM caps the model calls per minute of this process's provider
// below the account's limit (--max-rpm over GDS_AI_MAX_RPM). It must come
// before the provider is first used.
func (d *Deps) SetMaxRPM(n int) {
	if d.Config != nil && n > 0 {
		d.Config.AIMaxRPM = n
	}
}

// ModelCalls is the chat model's lane statistics of the configured
// provider (calls made, the limit they run under), for progress lines; nil
// when the provider's calls are not paced (offline) or it cannot be built.
func (d *Deps) ModelCalls() func() ratelimit.Stats {
	p, err := d.Provider()
	if err != nil {
		return nil
	}
	if pc, ok := p.(ratelimit.Paced); ok {
		return pc.Scheduler().Chat().Stats
	}
	return nil
}

// PaceModelCalls is SetMaxRPM(maxRPM) then ModelCalls: a command's
// --max-rpm, and the statistics its progress shows.
func (d *Deps) PaceModelCalls(maxRPM int) func() ratelimit.Stats {
	d.SetMaxRPM(maxRPM)
	return d.ModelCalls()
}
