//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// job is the part of a Kubernetes Job manifest the test reads.
type job struct {
	Kind string `yaml:"kind"`
	Spec struct {
		CompletionMode       string `yaml:"completionMode"`
		Completions          int    `yaml:"completions"`
		BackoffLimit         *int   `yaml:"backoffLimit"`
		BackoffLimitPerIndex *int   `yaml:"backoffLimitPerIndex"`
		MaxFailedIndexes     *int   `yaml:"maxFailedIndexes"`
		Template             struct {
			Spec struct {
				Containers []struct {
					Image           string   `yaml:"image"`
					ImagePullPolicy string   `yaml:"imagePullPolicy"`
					Command         []string `yaml:"command"`
					VolumeMounts    []struct {
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
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
	path := fakeSimctl(t)
	checkIndexedJob(t, func(script, mount, results string, index int) ([]byte, error) {
		x := exec.Command("sh", "-c", strings.ReplaceAll(script, mount, results))
		x.Env = append(os.Environ(), "PATH="+path)
		if index >= 0 {
			x.Env = append(x.Env, "JOB_COMPLETION_INDEX="+strconv.Itoa(index))
		}
		return x.CombinedOutput()
	})
}

// checkIndexedJob plays the Indexed Job of shards.yaml and then merge.yaml
// through run: each container's `sh -c` script with -n scaled down a
// hundredfold, the path it mounts the volume at, the folder results
// standing for the shared volume, and the completion index (-1 for the
// merge).
// run says how a container runs: a local shell, or the image.
func checkIndexedJob(t *testing.T, run func(script, mount, results string, index int) ([]byte, error)) {
	t.Helper()
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
	container := func(cmd []string, mount string, index int) {
		t.Helper()
		if len(cmd) != 3 || cmd[0] != "sh" || cmd[1] != "-c" {
			t.Fatalf("a container's command is %q; the test runs `sh -c SCRIPT`", cmd)
		}
		last := strings.Replace(cmd[2], "-n 4000000", "-n 40000", 1)
		last = strings.Replace(last, "-n 400000", "-n 4000", 1)
		if out, err := run(last, mount, results, index); err != nil {
			t.Fatalf("%s (index %d): %v\n%s", last, index, err, out)
		}
	}
	for i := 0; i < shards.Spec.Completions; i++ {
		container(c.Command, c.VolumeMounts[0].MountPath, i)
	}
	m := merge.Spec.Template.Spec.Containers[0]
	if m.VolumeMounts[0].MountPath != c.VolumeMounts[0].MountPath {
		t.Fatalf("merge.yaml mounts the volume at %s, shards.yaml at %s", m.VolumeMounts[0].MountPath, c.VolumeMounts[0].MountPath)
	}
	container(m.Command, m.VolumeMounts[0].MountPath, -1)

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

// TestKubernetesRecipe checks what a user with a real cluster meets
// (issue 21): the image the manifests name is built by deploy/Dockerfile
// (static, distroless) and used as loaded (imagePullPolicy IfNotPresent,
// not the default Always of a :latest tag, which gives ErrImagePull); the
// claim both Jobs mount is the one pvc.yaml makes (ReadWriteMany); the
// shards retry per index; deploy/README.md exists; and wait.sh returns on
// a failed Job as on a complete one (kubectl wait --for=condition=complete
// waits out its timeout on a failed Job).
func TestKubernetesRecipe(t *testing.T) {
	shards := readJob(t, "../../deploy/kubernetes/shards.yaml")
	merge := readJob(t, "../../deploy/kubernetes/merge.yaml")
	var pvc struct {
		Kind     string `yaml:"kind"`
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec struct {
			AccessModes []string `yaml:"accessModes"`
			Resources   struct {
				Requests map[string]string `yaml:"requests"`
			} `yaml:"resources"`
		} `yaml:"spec"`
	}
	data, err := os.ReadFile("../../deploy/kubernetes/pvc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &pvc); err != nil || pvc.Kind != "PersistentVolumeClaim" || pvc.Spec.Resources.Requests["storage"] == "" ||
		len(pvc.Spec.AccessModes) != 1 || pvc.Spec.AccessModes[0] != "ReadWriteMany" {
		t.Fatalf("pvc.yaml: not a ReadWriteMany PersistentVolumeClaim with a size: %+v (%v)", pvc, err)
	}
	for name, j := range map[string]job{"shards.yaml": shards, "merge.yaml": merge} {
		c := j.Spec.Template.Spec.Containers[0]
		if c.Image != "simctl:latest" || c.ImagePullPolicy != "IfNotPresent" {
			t.Errorf("%s: image %q with imagePullPolicy %q; want simctl:latest (deploy/Dockerfile's) with IfNotPresent", name, c.Image, c.ImagePullPolicy)
		}
		vs := j.Spec.Template.Spec.Volumes
		if len(vs) != 1 || vs[0].PersistentVolumeClaim.ClaimName != pvc.Metadata.Name {
			t.Errorf("%s: mounts %+v, not pvc.yaml's claim %q", name, vs, pvc.Metadata.Name)
		}
	}
	if s := shards.Spec; s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex < 1 || s.BackoffLimit != nil || s.MaxFailedIndexes == nil {
		t.Errorf("shards.yaml: want backoffLimitPerIndex (retries per index) and maxFailedIndexes, and no Job-wide backoffLimit shared by every index")
	}
	docker, err := os.ReadFile("../../deploy/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(docker)
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(df, -1)
	if len(froms) == 0 || !strings.Contains(df, "CGO_ENABLED=0") || !strings.Contains(df, "./cmd/simctl") ||
		!regexp.MustCompile(`^(gcr\.io/distroless/static|scratch)`).MatchString(froms[len(froms)-1][1]) ||
		!regexp.MustCompile(`(?m)^COPY --from=\S+ \S+ /usr/local/bin/simctl$`).MatchString(df) {
		t.Errorf("deploy/Dockerfile: want a static (CGO_ENABLED=0) build of ./cmd/simctl copied to /usr/local/bin/simctl on a distroless/static or scratch base:\n%s", df)
	}
	readme, err := os.ReadFile("../../deploy/README.md")
	if err != nil {
		t.Fatal("deploy/README.md, which the manifests point to, is missing")
	}
	for _, f := range []string{"Dockerfile", "pvc.yaml", "shards.yaml", "merge.yaml", "wait.sh", "imagePullPolicy", "simctl-array.sbatch"} {
		if !bytes.Contains(readme, []byte(f)) {
			t.Errorf("deploy/README.md does not mention %s", f)
		}
	}
	// wait.sh against a fake kubectl reporting each condition.
	for cond, want := range map[string]int{"Complete": 0, "Failed": 1} {
		bin := t.TempDir()
		fake := "#!/bin/sh\ncase \"$1\" in get) printf '%s ' " + cond + ";; esac\n"
		if err := os.WriteFile(filepath.Join(bin, "kubectl"), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
		x := exec.Command("sh", "../../deploy/kubernetes/wait.sh", "job/simctl-shards", "30")
		x.Env = append(os.Environ(), "KUBECTL="+filepath.Join(bin, "kubectl"))
		out, _ := x.CombinedOutput()
		if code := x.ProcessState.ExitCode(); code != want {
			t.Errorf("wait.sh on a %s Job: exit %d, want %d\n%s", cond, code, want, out)
		}
	}
}
