//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestKubernetesImage builds the image deploy/Dockerfile describes and plays
// the Indexed Job in it, one container per completion index and then the
// merge, each as the image's user with only the results folder mounted.
//
// The Dockerfile itself cannot be built here: its FROM images (golang,
// busybox, distroless) live in container registries these machines do not
// reach. So the test assembles the same final image from the same parts
// with buildah, on an empty base (stricter than distroless/static, which
// adds CA certificates, /etc/passwd and time zones): the binary built by
// the Dockerfile's own build command (read from its RUN line), a static
// busybox as /bin/sh (Debian's busybox-static for the busybox:musl stage),
// the binary at the path the Dockerfile copies it to, and the Dockerfile's
// USER. It needs root and buildah; it skips without them unless
// SIMCTL_IMAGE is set (CI sets it after installing buildah), when it fails.
func TestKubernetesImage(t *testing.T) {
	need := os.Getenv("SIMCTL_IMAGE") != ""
	skip := func(why string) {
		t.Helper()
		if need {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	if testing.Short() || raceEnabled {
		// Under -race the image would be the same: the ordinary go test builds it.
		t.Skip("builds an image (the ordinary go test runs it)")
	}
	if os.Geteuid() != 0 {
		skip("buildah needs root here")
	}
	buildah, err := exec.LookPath("buildah")
	if err != nil {
		skip("buildah is not installed (apt-get install buildah)")
	}
	const busybox = "/bin/busybox"
	if out, err := exec.Command("file", "-L", busybox).Output(); err != nil || !bytes.Contains(out, []byte("statically linked")) {
		skip("no static busybox at /bin/busybox (apt-get install busybox-static)")
	}

	docker, err := os.ReadFile("../../deploy/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(docker)
	build := regexp.MustCompile(`(?m)^RUN (CGO_ENABLED=0 go build .*) -o (\S+) (\./cmd/simctl)$`).FindStringSubmatch(df)
	copyTo := regexp.MustCompile(`(?m)^COPY --from=build (\S+) (\S+)$`).FindStringSubmatch(df)
	user := regexp.MustCompile(`(?m)^USER (\d+):(\d+)$`).FindStringSubmatch(df)
	if build == nil || copyTo == nil || user == nil || copyTo[1] != build[2] {
		t.Fatalf("deploy/Dockerfile: want `RUN CGO_ENABLED=0 go build ... -o OUT ./cmd/simctl`, `COPY --from=build OUT PATH` and `USER UID:GID`:\n%s", df)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "simctl")
	x := exec.Command("sh", "-c", build[1]+" -o "+strconv.Quote(bin)+" "+build[3])
	x.Dir = "../.."
	if out, err := x.CombinedOutput(); err != nil {
		t.Fatalf("the Dockerfile's build: %v\n%s", err, out)
	}
	if out, err := exec.Command("file", bin).Output(); err != nil || !bytes.Contains(out, []byte("statically linked")) {
		t.Fatalf("the Dockerfile's build is not a static binary: %s", out)
	}

	ah := func(args ...string) string {
		t.Helper()
		x := exec.Command(buildah, args...)
		x.Env = append(os.Environ(), "BUILDAH_ISOLATION=chroot")
		out, err := x.Output()
		if err != nil {
			msg := ""
			if e, ok := err.(*exec.ExitError); ok {
				msg = string(e.Stderr)
			}
			t.Fatalf("buildah %s: %v\n%s", strings.Join(args, " "), err, msg)
		}
		return strings.TrimSpace(string(out))
	}
	c := ah("from", "--name", "simctl-image-test-"+strconv.Itoa(os.Getpid()), "scratch")
	t.Cleanup(func() { exec.Command(buildah, "rm", c).Run() })
	root := ah("mount", c)
	for _, d := range []string{"bin", filepath.Dir(copyTo[2])[1:], "tmp"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(root, "tmp"), 0o1777); err != nil {
		t.Fatal(err)
	}
	cp := func(from, to string) {
		t.Helper()
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, to), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cp(busybox, "bin/busybox")
	cp(bin, copyTo[2][1:])
	if err := os.Symlink("busybox", filepath.Join(root, "bin/sh")); err != nil {
		t.Fatal(err)
	}
	ah("umount", c)
	ah("config", "--user", user[1]+":"+user[2], "--env", "PATH=/usr/local/bin:/usr/bin:/bin", c)

	uid, _ := strconv.Atoi(user[1])
	gid, _ := strconv.Atoi(user[2])
	checkIndexedJob(t, func(script, mount, results string, index int) ([]byte, error) {
		// The manifests' fsGroup makes the shared volume the user's.
		if err := os.Chown(results, uid, gid); err != nil {
			return nil, err
		}
		args := []string{"run", "--volume", results + ":" + mount}
		if index >= 0 {
			args = append(args, "--env", "JOB_COMPLETION_INDEX="+strconv.Itoa(index))
		}
		args = append(args, c, "--", "sh", "-c", script)
		x := exec.Command(buildah, args...)
		x.Env = append(os.Environ(), "BUILDAH_ISOLATION=chroot")
		return x.CombinedOutput()
	})
}
