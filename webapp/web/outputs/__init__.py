"""Each resource's outward shape, built in one place and used by every face that shows it: the JSON API,
the other views and the command line's `--format json` (docs/api.md, docs/cli.md say what each holds)."""
