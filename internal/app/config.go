package app

import "github.com/gds-cli/gds/internal/config"

// ConfigForShow is the configuration `gds config show` prints: the loaded
// one, or, when it has problems, every value that could be read and the
// problems (doctor sends users there, so it shows what it can). err is
// set only when nothing could be read.
func (d *Deps) ConfigForShow() (cfg *config.Config, problems []error, err error) {
	cfg, err = d.RequireConfig()
	if err == nil {
		return cfg, nil, nil
	}
	if d.LoadAllConfig == nil {
		return nil, nil, err
	}
	if all, problems := d.LoadAllConfig(); all != nil && len(problems) > 0 {
		return all, problems, nil
	}
	return nil, nil, err
}
