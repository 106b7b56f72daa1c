package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/doctor"
)

// doctorOptions are the flags of `gds doctor`.
type doctorOptions struct {
	JSON    bool
	Offline bool
}

// doctorError is returned when the report has failures; the report itself
// was already printed.
type doctorError struct {
	msg string
}

func (e doctorError) Error() string { return e.msg }
func (e doctorError) Unwrap() error { return doctor.ErrUnhealthy }

// Hint is empty: the report above already gives a fix per problem.
func (e doctorError) Hint(string) string { return "" }

func newDoctorCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "doctor",
		Usage:       d.T("cmd.doctor.usage"),
		Description: d.T("cmd.doctor.desc"),
		Flags:       []cli.Flag{jsonFlag(d), &cli.BoolFlag{Name: "offline", Usage: d.T("flag.doctor.offline")}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runDoctor(ctx, d, doctorOptions{JSON: cmd.Bool("json"), Offline: cmd.Bool("offline")}, osScheduleEnv())
		},
	}
}

func runDoctor(ctx context.Context, d *app.Deps, opts doctorOptions, env scheduleEnv) error {
	r := doctor.Run(ctx, d.DoctorInputs(ctx, opts.Offline, env))
	var err error
	if opts.JSON {
		err = doctor.WriteJSON(d.Stdout, r)
	} else {
		err = doctor.WriteText(d.Stdout, r, d.Lang)
	}
	if err != nil {
		return err
	}
	if !r.Healthy {
		fails, _ := r.Counts()
		return doctorError{msg: d.N("doctor.unhealthy", fails)}
	}
	return nil
}
