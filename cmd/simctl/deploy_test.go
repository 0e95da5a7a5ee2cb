//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// job is the part of a Kubernetes Job manifest the test reads.
type job struct {
	Kind string `yaml:"kind"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Template       struct {
			Spec struct {
				Containers []struct {
					Command      []string `yaml:"command"`
					VolumeMounts []struct {
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readJob(t *testing.T, path string) job {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j job
	if err := yaml.Unmarshal(data, &j); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if j.Kind != "Job" || len(j.Spec.Template.Spec.Containers) != 1 || len(j.Spec.Template.Spec.Containers[0].VolumeMounts) != 1 {
		t.Fatalf("%s: not a Job with one container and one volume", path)
	}
	return j
}

// fakeSimctl puts a `simctl` on a PATH of its own that is this test binary
// acting as simctl, and returns that PATH.
func fakeSimctl(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	script := "#!/bin/sh\nSIMCTL_AS_MAIN=1 exec " + strconv.Quote(exe) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "simctl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// TestKubernetesIndexedJob runs deploy/kubernetes/shards.yaml's command for
// every completion index, as the Job controller would (JOB_COMPLETION_INDEX
// set, the shared volume a local folder, -n scaled down a hundredfold),
// then merge.yaml's, and checks the merged counts are byte for byte those
// of the same run in one process.
func TestKubernetesIndexedJob(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes")
	}
	shards := readJob(t, "../../deploy/kubernetes/shards.yaml")
	merge := readJob(t, "../../deploy/kubernetes/merge.yaml")
	if shards.Spec.CompletionMode != "Indexed" || shards.Spec.Completions < 2 {
		t.Fatalf("shards.yaml: completionMode %q, completions %d; want an Indexed Job of several shards", shards.Spec.CompletionMode, shards.Spec.Completions)
	}
	c := shards.Spec.Template.Spec.Containers[0]
	script := c.Command[len(c.Command)-1]
	if !strings.Contains(script, "--shard "+strconv.Itoa(shards.Spec.Completions)+" ") {
		t.Fatalf("shards.yaml: the command's --shard must equal completions (%d): %s", shards.Spec.Completions, script)
	}
	results := t.TempDir()
	path := fakeSimctl(t)
	local := func(cmd []string, mount string, index int) []byte {
		t.Helper()
		args := append([]string(nil), cmd...)
		last := strings.ReplaceAll(args[len(args)-1], mount, results)
		last = strings.Replace(last, "-n 4000000", "-n 40000", 1)
		args[len(args)-1] = strings.Replace(last, "-n 400000", "-n 4000", 1)
		x := exec.Command(args[0], args[1:]...)
		x.Env = append(os.Environ(), "PATH="+path)
		if index >= 0 {
			x.Env = append(x.Env, "JOB_COMPLETION_INDEX="+strconv.Itoa(index))
		}
		out, err := x.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return out
	}
	for i := 0; i < shards.Spec.Completions; i++ {
		local(c.Command, c.VolumeMounts[0].MountPath, i)
	}
	m := merge.Spec.Template.Spec.Containers[0]
	local(m.Command, m.VolumeMounts[0].MountPath, -1)

	code, whole, stderr := simctl(t, t.Context(), "run", "d20/duel", "-n", "40000", "--seed", "1", "--json")
	if code != 0 {
		t.Fatal(stderr)
	}
	merged, err := os.ReadFile(filepath.Join(results, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := tallyOf(t, merged), tallyOf(t, []byte(whole)); !bytes.Equal(a, b) {
		t.Errorf("the Indexed Job's merged tally differs from one process's:\n%s\n%s", a, b)
	}
	code, wholeSweep, stderr := simctl(t, t.Context(), "sweep", "d20/duel", "--vary", "heroes.Fighter.init=0:6:1", "-n", "4000", "--seed", "1", "--format", "json")
	if code != 0 {
		t.Fatal(stderr)
	}
	mergedSweep, err := os.ReadFile(filepath.Join(results, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := pointTallies(t, mergedSweep), pointTallies(t, []byte(wholeSweep))
	if len(a) != 7 || len(a) != len(b) {
		t.Fatalf("merged sweep has %d points, one process %d", len(a), len(b))
	}
	for k := range a {
		if !bytes.Equal(a[k], b[k]) {
			t.Errorf("sweep point %d: the merged shards' tally differs from one process's", k)
		}
	}
}

func pointTallies(t *testing.T, doc []byte) []json.RawMessage {
	t.Helper()
	var d struct {
		Points []struct {
			Result map[string]json.RawMessage `json:"result"`
		} `json:"points"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for _, p := range d.Points {
		out = append(out, p.Result["tally"])
	}
	return out
}

func tallyOf(t *testing.T, doc []byte) []byte {
	t.Helper()
	var d map[string]json.RawMessage
	if err := json.Unmarshal(doc, &d); err != nil || d["tally"] == nil {
		t.Fatalf("no tally in %.200s (%v)", doc, err)
	}
	return d["tally"]
}
