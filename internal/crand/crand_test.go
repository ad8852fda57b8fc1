package crand

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// cProgram prints, for each seed on its command line, the first n numbers
// of random() after srandom(seed).
const cProgram = `#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
	int n = atoi(argv[1]);
	for (int a = 2; a < argc; a++) {
		srandom((unsigned) strtoul(argv[a], 0, 10));
		for (int i = 0; i < n; i++) printf("%ld\n", random());
	}
	return 0;
}
`

// TestMatchesGlibc compares the port with glibc for a sweep of seeds,
// 0 and 2^32-1 included.
func TestMatchesGlibc(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		testenv.Skipf(t, "needs gcc to build the C reference: %v", err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "r.c")
	bin := filepath.Join(dir, "r")
	if err := os.WriteFile(src, []byte(cProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	seeds := []uint32{0, 1, 2, 3, 42, 127773, 2147483646, 2147483647, 2147483648, 4294967294, 4294967295}
	for s := uint64(12345); len(seeds) < 200; s = s*6364136223846793005 + 1442695040888963407 {
		seeds = append(seeds, uint32(s>>32))
	}
	const n = 1000
	args := []string{strconv.Itoa(n)}
	for _, s := range seeds {
		args = append(args, strconv.FormatUint(uint64(s), 10))
	}
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for _, s := range seeds {
		r := New(s)
		for i := 0; i < n; i++ {
			if !sc.Scan() {
				t.Fatal("C output ended early")
			}
			if got, want := fmt.Sprint(r.Random()), sc.Text(); got != want {
				t.Fatalf("seed %d, number %d: got %s, glibc %s", s, i, got, want)
			}
		}
	}
}

// TestKnownValues pins glibc's well-known first outputs for seed 1 (the
// default seed), so the test means something without gcc too.
func TestKnownValues(t *testing.T) {
	r := New(1)
	for _, want := range []int32{1804289383, 846930886, 1681692777, 1714636915, 1957747793} {
		if got := r.Random(); got != want {
			t.Fatalf("got %d, want %d", got, want)
		}
	}
}

func TestCompetitionSeed(t *testing.T) {
	entrants := []uint32{4294967295, 1 << 30, 12345}
	t18, err := CompetitionSeed(2018, entrants, "12775.61")
	if err != nil {
		t.Fatal(err)
	}
	sum := uint64(4294967295) + 1<<30 + 12345
	if t18.Sum != sum || t18.SumMod != sum%(1<<30) || t18.NYSETerm != 12775 || uint64(t18.Seed) != sum%(1<<30)+12775 {
		t.Errorf("2018: %+v", t18)
	}
	t22, _ := CompetitionSeed(2022, entrants, "15123.45")
	if t22.NYSETerm != 1512345 {
		t.Errorf("2022: 100 x 15123.45 = %d", t22.NYSETerm)
	}
	if t22, _ := CompetitionSeed(2022, nil, "15123.4"); t22.NYSETerm != 1512340 {
		t.Errorf("2022 one decimal: %d", t22.NYSETerm)
	}
	if _, err := CompetitionSeed(2022, nil, "15,123.45"); err == nil {
		t.Error("a malformed NYSE value was accepted")
	}
}
