// Package config loads the gds configuration.
//
// Sources, highest precedence first:
//
//  1. real environment variables,
//  2. the .env file in the current directory,
//  3. the .env file in the gds home directory,
//  4. built-in defaults.
//
// The gds home is GDS_HOME when set (in the environment or in the current
// directory's .env), else the OS user config directory + "/gds":
// ~/Library/Application Support/gds on macOS, $XDG_CONFIG_HOME/gds or
// ~/.config/gds on Linux, %AppData%\gds on Windows. The index, tokens and
// other data live in the same directory, so one GDS_HOME isolates
// everything.
//
// .env files are parsed by package envfile (godotenv's grammar, in one
// linear pass, at most envfile.MaxSize bytes) without touching the process
// environment. Every value remembers where it came from, and validation
// returns one *Error naming the variable, the bad value (masked when it is a
// secret) and the fix.
package config
