package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rkhs/internal/cli/clitest"
)

// fixture is a command line of a verb that succeeds: its arguments
// without the output flags, the path each output flag takes by default,
// an input file that no output may replace, and the path of an output
// that no flag names (predict's files; "" for none).
type fixture struct {
	args    []string
	outputs map[string]string
	input   string
	other   string
}

// fixtures make, in dir, the files a run of each verb needs (train.csv,
// clean.csv, model.json and stats.bin are there already: see
// trainingFiles).
var fixtures = map[string]func(t *testing.T, dir string) fixture{
	"fit": func(t *testing.T, dir string) fixture {
		return fixture{args: []string{"fit", "-input", "train.csv", "-format", "csv", "-sigma", "1", "-lambda", "1e-3", "-centers", "5"},
			outputs: map[string]string{"model": "m.json", "stats": "s.bin", "dead-letter": "dead.txt"}, input: "train.csv"}
	},
	"select": func(t *testing.T, dir string) fixture {
		return fixture{args: []string{"select", "-input", "clean.csv", "-format", "csv", "-sigmas", "1:1:1", "-lambdas", "1e-3:1e-3:1", "-centers", "5", "-criterion", "gcv"},
			outputs: map[string]string{"model": "m.json"}, input: "clean.csv"}
	},
	"predict": func(t *testing.T, dir string) fixture {
		os.Mkdir(filepath.Join(dir, "out"), 0o755)
		return fixture{args: []string{"predict", "-input", "train.csv", "-format", "csv", "-model", "model.json", "-output", "out"},
			outputs: map[string]string{"dead-letter": "dead.txt"}, input: "train.csv", other: "out/train.csv.pred"}
	},
	"solve": func(t *testing.T, dir string) fixture {
		return fixture{args: []string{"solve", "-stats", "stats.bin", "-lambda", "1e-2"}, outputs: map[string]string{"model": "m.json"}, input: "stats.bin"}
	},
}

// trainingFiles writes clean.csv (30 rows with a header) and train.csv
// (the same and one malformed line, for the dead letters) to dir and fits
// train.csv, leaving model.json and stats.bin there.
func trainingFiles(t *testing.T, dir string) {
	t.Helper()
	writeRows(t, filepath.Join(dir, "clean.csv"), "a,b,c,y", 30, 1, 1)
	b, _ := os.ReadFile(filepath.Join(dir, "clean.csv"))
	if err := os.WriteFile(filepath.Join(dir, "train.csv"), append(b, "1,x,2,3\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := rkhsBeam(t, dir, "fit", "-input", "train.csv", "-format", "csv", "-sigma", "1", "-lambda", "1e-3", "-centers", "5",
		"-model", "model.json", "-stats", "stats.bin", "-dead-letter", "dead.txt"); code != 0 {
		t.Fatalf("fit: exit %d:\n%s", code, out)
	}
}

// TestEveryOutputOfEveryVerb walks the verb table: every output flag of
// every verb, given each path of clitest.Cases (a missing directory, a
// directory, the input file or a link to it, another output, a symbolic
// link, a dangling link, standard output, /dev/stdout, /dev/null, a named
// pipe), is refused before any job or written where the case says, as
// rkhs's outputs are. A verb without a fixture, or a flag whose help says
// "output:" but is not among the verb's outputs, fails the test.
func TestEveryOutputOfEveryVerb(t *testing.T) {
	shared := t.TempDir()
	trainingFiles(t, shared)
	for _, v := range verbs {
		setup, ok := fixtures[v.name]
		if !ok {
			t.Errorf("verb %s has no fixture: its outputs are not tested", v.name)
			continue
		}
		fs := flag.NewFlagSet(v.name, flag.ContinueOnError)
		v.flags(fs)
		fs.VisitAll(func(f *flag.Flag) {
			if strings.HasPrefix(f.Usage, "output:") && !slices.Contains(v.outputs, f.Name) {
				t.Errorf("%s -%s is an output that the verb table does not list", v.name, f.Name)
			}
		})
		for _, out := range v.outputs {
			for _, c := range clitest.Cases {
				t.Run(v.name+"/-"+out+"/"+c.Name, func(t *testing.T) {
					dir := t.TempDir()
					for _, name := range []string{"clean.csv", "train.csv", "model.json", "stats.bin"} {
						b, _ := os.ReadFile(filepath.Join(shared, name))
						os.WriteFile(filepath.Join(dir, name), b, 0o644)
					}
					fx := setup(t, dir)
					env := clitest.Env{Dir: dir, Input: filepath.Join(dir, fx.input)}
					for _, name := range v.outputs {
						if name != out && env.Other == "" {
							env.Other = filepath.Join(dir, fx.outputs[name])
						}
					}
					if env.Other == "" && fx.other != "" {
						env.Other = filepath.Join(dir, fx.other)
					}
					if _, ok := fx.outputs[out]; !ok {
						t.Fatalf("the fixture of %s sets no -%s", v.name, out)
					}
					path, want, check := c.Path(t, env)
					args := slices.Clone(fx.args)
					for _, name := range v.outputs {
						p := fx.outputs[name]
						if name == out {
							p = path
						}
						args = append(args, "-"+name, p)
					}
					before, _ := os.ReadFile(env.Input)
					code, stdout, stderr := rkhsBeamStreams(t, dir, args...)
					if after, _ := os.ReadFile(env.Input); !bytes.Equal(after, before) {
						t.Fatalf("%s: the input %s changed", strings.Join(args, " "), fx.input)
					}
					if want == clitest.Refused {
						if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
							t.Errorf("%s: exit %d, %s; want a one-line refusal (exit 2)", strings.Join(args, " "), code, stderr)
						}
						return
					}
					if code != 0 {
						t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
					}
					check(t, []byte(stdout))
				})
			}
		}
	}
}

// besideFiles are the files a verb reads beside its training file, each
// with the run that reads one (in dir, where clean.csv and model.json,
// its fit, are) beside the training file train read with the flags
// (-target, -features; for predict, those of the fit that saves the
// model it reads, model.json for clean.csv and none) and returns the
// exit status, what it wrote (the predictions, the model) and what it
// said. TestEveryBesideFlagHasARow requires a row for every flag whose
// help says it is read by the names of the training file's columns.
var besideFiles = []struct {
	name string
	run  func(t *testing.T, dir, train, file string, flags []string) (code int, wrote []byte, said string)
}{
	{"predict -input", func(t *testing.T, dir, train, file string, flags []string) (int, []byte, string) {
		model := "model.json"
		if train != "clean.csv" || flags != nil {
			model = filepath.Join(dir, "model-"+train+".json")
			if code, said := rkhsBeam(t, dir, append([]string{"fit", "-input", train, "-format", "csv", "-sigma", "1", "-lambda", "1e-3", "-centers", "5", "-model", model}, flags...)...); code != 0 {
				t.Fatalf("fit on %s %v: exit %d: %s", train, flags, code, said)
			}
		}
		out := filepath.Join(dir, "out-"+file)
		os.Mkdir(out, 0o755)
		code, said := rkhsBeam(t, dir, "predict", "-input", file, "-format", "csv", "-model", model, "-output", out)
		b, _ := os.ReadFile(filepath.Join(out, file+".pred"))
		return code, b, said
	}},
	{"fit -centers-file", func(t *testing.T, dir, train, file string, flags []string) (int, []byte, string) {
		model := filepath.Join(dir, "model-"+file+".json")
		code, said := rkhsBeam(t, dir, append([]string{"fit", "-input", train, "-format", "csv", "-sigma", "1", "-lambda", "1e-3", "-centers-file", file, "-model", model}, flags...)...)
		b, _ := os.ReadFile(model)
		return code, b, said
	}},
	{"select -centers-file", func(t *testing.T, dir, train, file string, flags []string) (int, []byte, string) {
		model := filepath.Join(dir, "select-"+file+".json")
		code, said := rkhsBeam(t, dir, append([]string{"select", "-input", train, "-format", "csv", "-sigmas", "1:1:1", "-lambdas", "1e-3:1e-3:1", "-criterion", "gcv", "-centers-file", file, "-model", model}, flags...)...)
		b, _ := os.ReadFile(model)
		return code, b, said
	}},
}

// TestEveryBesideFlagHasARow walks the verb table: every file a verb
// reads in the input's format beside its input (an input flag whose help
// says "in the input format"), and the -input of a verb that reads a
// model instead of training on its input (predict), has a row in
// besideFiles, by its "verb -flag".
func TestEveryBesideFlagHasARow(t *testing.T) {
	rows := map[string]bool{}
	for _, bf := range besideFiles {
		rows[bf.name] = true
	}
	for _, v := range verbs {
		fs := flag.NewFlagSet(v.name, flag.ContinueOnError)
		v.flags(fs)
		for _, in := range v.inputs {
			key := v.name + " -" + in
			if f := fs.Lookup(in); f != nil && strings.Contains(f.Usage, "in the input format") && !rows[key] {
				t.Errorf("%s is read beside the input without a row in besideFiles", key)
			}
			if in == "model" && fs.Lookup("input") != nil && !rows[v.name+" -input"] {
				t.Errorf("%s -input is read beside a model's training file without a row in besideFiles", v.name)
			}
		}
	}
}

// cleanLayout writes to dir/name the rows of dir/clean.csv (a, b, c, y)
// with the columns named (z: a column of zeros), with or without their
// names as a header, and returns name.
func cleanLayout(t *testing.T, dir, name string, header bool, names ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "clean.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	cols := map[string]int{"a": 0, "b": 1, "c": 2, "y": 3}
	var sb strings.Builder
	if header {
		sb.WriteString(strings.Join(names, ",") + "\n")
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		row := make([]string, len(names))
		for k, n := range names {
			row[k] = "0"
			if j, ok := cols[n]; ok {
				row[k] = f[j]
			}
		}
		sb.WriteString(strings.Join(row, ",") + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestFilesBesideTraining: every file read beside a training file with a
// header is read as rkhs reads a predict file: by the training columns'
// names when it has a header — so a permuted header or an extra column
// changes nothing, bit for bit, and a missing column is an error that
// names it — and by position without one, its width checked.
func TestFilesBesideTraining(t *testing.T) {
	dir := t.TempDir()
	trainingFiles(t, dir)
	layout := func(name string, header bool, names ...string) string {
		return cleanLayout(t, dir, name, header, names...)
	}
	for _, bf := range besideFiles {
		code, want, said := bf.run(t, dir, "clean.csv", layout("same.csv", true, "a", "b", "c", "y"), nil)
		if code != 0 || len(want) == 0 {
			t.Fatalf("%s on the training layout: exit %d: %s", bf.name, code, said)
		}
		for _, c := range []struct {
			name  string
			file  string
			fails []string // what the error says; nil: the same output as the training layout
		}{
			{"header permuted", layout("permuted.csv", true, "y", "c", "a", "b"), nil},
			{"extra column", layout("extra.csv", true, "a", "b", "z", "c", "y"), nil},
			{"missing column", layout("missing.csv", true, "a", "c", "y"), []string{`"b" is not a column of the header (a, c, y)`}},
			{"no header", layout("bare.csv", false, "a", "b", "c", "y"), nil},
			{"another feature count", layout("narrow.csv", false, "a", "b", "y"), []string{"narrow.csv has 2 features"}},
		} {
			code, got, said := bf.run(t, dir, "clean.csv", c.file, nil)
			switch {
			case c.fails == nil && (code != 0 || !bytes.Equal(got, want)):
				t.Errorf("%s, %s: exit %d, %d bytes differ from the training layout's: %s", bf.name, c.name, code, len(got), said)
			case c.fails != nil && (code == 0 || strings.Count(strings.TrimSpace(said), "\n") > 0 || !strings.Contains(said, c.fails[0])):
				t.Errorf("%s, %s: exit %d: %s; want an error with %q", bf.name, c.name, code, said, c.fails[0])
			}
		}
	}
}

// TestFilesBesideTrainingHeaderless: every file read beside a training
// file (besideFiles) × every training layout a headerless file cannot
// share — the label not the last column (-target), -features a subset:
// with the training file's header it is read (exit 0); without it, it is
// refused in one line that says it has no header, or, for predict, whose
// model does not record where the label was, read by position with one
// note saying so — as rkhs reads its -test and predict -data.
func TestFilesBesideTrainingHeaderless(t *testing.T) {
	dir := t.TempDir()
	trainingFiles(t, dir)
	layout := func(name string, header bool, names ...string) string {
		return cleanLayout(t, dir, name, header, names...)
	}
	for _, l := range []struct {
		name  string
		cols  []string
		flags []string
	}{
		{"label first", []string{"y", "a", "b", "c"}, []string{"-target", "y"}},
		{"features a subset", []string{"a", "b", "c", "y"}, []string{"-features", "a,b"}},
	} {
		train := layout("train-"+strings.ReplaceAll(l.name, " ", "-")+".csv", true, l.cols...)
		headed := layout("headed.csv", true, l.cols...)
		bare := layout("bare.csv", false, l.cols...)
		for _, bf := range besideFiles {
			name := bf.name + ", " + l.name
			if code, _, said := bf.run(t, dir, train, headed, l.flags); code != 0 {
				t.Errorf("%s, with the training header: exit %d: %s", name, code, said)
			}
			code, _, said := bf.run(t, dir, train, bare, l.flags)
			refused := code == 2 && strings.Count(strings.TrimSpace(said), "\n") == 0 && strings.Contains(said, "has no header")
			noted := code == 0 && strings.Count(said, "has no header: its columns are read by position as") == 1
			if !refused && !(bf.name == "predict -input" && noted) {
				t.Errorf("%s, without a header: exit %d: %s; want a one-line refusal saying it has no header (or, for predict, one note that its columns are read by position)", name, code, said)
			}
		}
	}
}
