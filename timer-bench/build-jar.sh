# Sourced by run and run-runtime: the build handling they share. Sets bench_dir, root and jar;
# builds timer-bench/target/benchmarks.jar (with what it depends on, tests skipped) unless the
# arguments say --no-build, in which case the jar must exist; leaves the other arguments, in order,
# in the array `args`.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/build-jar.sh" "$@"

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench_dir")"
jar="$bench_dir/target/benchmarks.jar"

build=1
args=()
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    *) args+=("$arg") ;;
  esac
done

if (( build )); then
  echo "Building timer-bench and what it benchmarks (mvn package, tests skipped)..."
  started=$SECONDS
  (cd "$root" && mvn -B -q -DskipTests -pl timer-bench -am package)
  echo "Built in $((SECONDS - started)) s."
elif [[ ! -f "$jar" ]]; then
  echo "$(basename "$0"): $jar is missing; run without --no-build" >&2
  exit 1
fi
