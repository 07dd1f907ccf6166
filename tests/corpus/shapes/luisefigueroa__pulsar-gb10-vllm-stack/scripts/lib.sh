#!/usr/bin/env bash
# Shared helpers for onboarding scripts. Source only — do not execute.
# shellcheck shell=bash

if [ -n "${_PULSAR_SCRIPTS_LIB:-}" ]; then
  return 0 2>/dev/null || exit 0
fi
_PULSAR_SCRIPTS_LIB=1

_scripts_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$_scripts_dir/.." && pwd)"
cd "$REPO_DIR"

if [ -f "$REPO_DIR/.env" ]; then
  set -a
  # shellcheck disable=SC1091
  . "$REPO_DIR/.env"
  set +a
fi

# shellcheck disable=SC1091
. "$REPO_DIR/cluster/cluster-env.sh"

VLLM_IMAGE_MAINLINE="${VLLM_IMAGE_MAINLINE:-vllm/vllm-openai:v0.26.0}"
HF_CACHE="${HF_CACHE:-$HOME/.cache/huggingface}"
MODELS_NFS="${MODELS_NFS:-/mnt/Models}"

# Memory policy defaults (GB10 unified memory)
MIN_OS_BUFFER_GIB="${MIN_OS_BUFFER_GIB:-8}"
HARD_FLOOR_AVAILABLE_GIB="${HARD_FLOOR_AVAILABLE_GIB:-4}"
LAUNCH_SPIKE_GIB="${LAUNCH_SPIKE_GIB:-3}"
OVERHEAD_GIB_DEFAULT="${OVERHEAD_GIB_DEFAULT:-10}"

log()  { printf '[%s] %s\n' "${SCRIPT_NAME:-pulsar}" "$*"; }
warn() { printf '[%s] warn: %s\n' "${SCRIPT_NAME:-pulsar}" "$*" >&2; }
die()  { printf '[%s] ERROR: %s\n' "${SCRIPT_NAME:-pulsar}" "$*" >&2; exit "${2:-1}"; }

# Human-facing name for vLLM's zero-based rank. Keep "rank" in machine data
# and launcher arguments; normal CLI output talks about physical cluster nodes.
human_cluster_node() {
  local rank="${1:?node position required}"
  if [ "$rank" = 0 ]; then
    printf 'this node\n'
  else
    printf 'cluster node %s\n' "$((rank + 1))"
  fi
}

terminal_width() {
  local width="${COLUMNS:-}"
  if ! [[ "$width" =~ ^[0-9]+$ ]] && [ -t 1 ] && command -v tput >/dev/null 2>&1; then
    width=$(tput cols 2>/dev/null || true)
  fi
  [[ "$width" =~ ^[0-9]+$ ]] || width=80
  [ "$width" -ge 32 ] || width=32
  [ "$width" -le 100 ] || width=100
  printf '%s\n' "$width"
}

print_hanging() {
  # print_hanging PREFIX MESSAGE — wrap MESSAGE with PREFIX-width continuation.
  local prefix="$1" message="$2" width content_width first line continuation
  width=$(terminal_width)
  content_width=$((width - ${#prefix}))
  [ "$content_width" -ge 8 ] || content_width=8
  printf -v continuation '%*s' "${#prefix}" ''
  first=1
  while IFS= read -r line; do
    line="${line%"${line##*[![:space:]]}"}"
    if [ "$first" = 1 ]; then
      printf '%s%s\n' "$prefix" "$line"
      first=0
    else
      printf '%s%s\n' "$continuation" "$line"
    fi
  done < <(printf '%s\n' "$message" | fold -s -w "$content_width")
}


# render_human_section TITLE LABEL VALUE [LABEL VALUE ...]
# Shared semantic section renderer for interactive, width-aware output.
render_human_section() {
  local title="${1:?section title required}"
  shift
  [ $(( $# % 2 )) -eq 0 ] \
    || die "render_human_section requires label/value pairs"
  python3 - "$title" "$@" <<'PY'
import sys

from scripts.terminal_format import TerminalWriter

title = sys.argv[1]
fields = sys.argv[2:]
term = TerminalWriter()
term.emit(title)
for index in range(0, len(fields), 2):
    term.field(fields[index], fields[index + 1])
PY
}

format_storage_gib() {
  local gib="${1:-0}"
  awk -v value="$gib" 'BEGIN {
    if (value + 0 >= 1024) printf "%.1f TiB", (value + 0) / 1024
    else printf "%.0f GiB", value + 0
  }'
}
require_cmd() {
  command -v "$1" >/dev/null 2>&1 || die "missing required command: $1 (install it and retry)"
}

# Load models/<name>.conf into caller shell. Resets optional fields first.
load_conf() {
  local name="${1:?load_conf: model name required}"
  case "$name" in
    *[!A-Za-z0-9._-]*|"")
      die "invalid model id '$name' (use letters, numbers, dot, underscore, or hyphen)"
      ;;
  esac
  local conf="$REPO_DIR/models/${name}.conf"
  [ -f "$conf" ] || die "no such config: $conf (try scripts/list-models.sh)"

  MODEL="" SERVED_NAME="" IMAGE="" NOTES="" STATUS="?"
  NODES=1 PORT=8000 GPU_MEM_UTIL=0.80
  ENGINE_ARGS=() CONTAINER_ENV=() SPEC_DECODE_ARGS=()
  WEIGHTS_GIB="" WEIGHTS_RAM_GIB="" KV_GIB="" OVERHEAD_GIB="" MEM_MIN_FREE_GIB=""
  RECOMMENDED_SPEC=0 FIRST_RUN_CANDIDATE=0
  PROFILE_FAMILY="" VARIANT_LABEL="" FAMILY_RECOMMENDED=0 PROFILE_PURPOSE="serving"
  TOPOLOGY_CLASS="" MIN_RAILS_PER_PAIR=""

  # shellcheck disable=SC1090
  . "$conf"

  [ -n "$MODEL" ] || die "$name: MODEL unset in conf"
  SERVED_NAME="${SERVED_NAME:-$name}"
  IMAGE="${IMAGE:-$VLLM_IMAGE_MAINLINE}"
  NODES="${NODES:-1}"
  PORT="${PORT:-8000}"
  GPU_MEM_UTIL="${GPU_MEM_UTIL:-0.80}"
  STATUS="${STATUS:-?}"
  OVERHEAD_GIB="${OVERHEAD_GIB:-$OVERHEAD_GIB_DEFAULT}"
  MEM_MIN_FREE_GIB="${MEM_MIN_FREE_GIB:-$MIN_OS_BUFFER_GIB}"
  RECOMMENDED_SPEC="${RECOMMENDED_SPEC:-0}"
  FIRST_RUN_CANDIDATE="${FIRST_RUN_CANDIDATE:-0}"
  PROFILE_FAMILY="${PROFILE_FAMILY:-$SERVED_NAME}"
  VARIANT_LABEL="${VARIANT_LABEL:-${NODES}-node}"
  FAMILY_RECOMMENDED="${FAMILY_RECOMMENDED:-0}"
  PROFILE_PURPOSE="${PROFILE_PURPOSE:-serving}"
  if [ "$NODES" = 1 ]; then
    TOPOLOGY_CLASS="${TOPOLOGY_CLASS:-single}"
    MIN_RAILS_PER_PAIR="${MIN_RAILS_PER_PAIR:-0}"
  else
    TOPOLOGY_CLASS="${TOPOLOGY_CLASS:-roce-full-mesh}"
    MIN_RAILS_PER_PAIR="${MIN_RAILS_PER_PAIR:-2}"
  fi
  CONF_NAME="$name"
  CONF_PATH="$conf"

  [[ "$NODES" =~ ^[1-9][0-9]*$ ]] || die "$name: NODES must be a positive integer"
  validate_profile_contract
}

engine_arg_value() {
  local wanted="${1:?flag required}" fallback="${2:-}" i
  for ((i = 0; i < ${#ENGINE_ARGS[@]}; i++)); do
    case "${ENGINE_ARGS[$i]}" in
      "$wanted")
        [ $((i + 1)) -lt "${#ENGINE_ARGS[@]}" ] \
          || die "$CONF_NAME: $wanted requires a value"
        printf '%s\n' "${ENGINE_ARGS[$((i + 1))]}"
        return 0
        ;;
      "$wanted"=*)
        printf '%s\n' "${ENGINE_ARGS[$i]#*=}"
        return 0
        ;;
    esac
  done
  printf '%s\n' "$fallback"
}

validate_profile_contract() {
  local tp pp world
  case "$PROFILE_PURPOSE" in
    serving|diagnostic) ;;
    *) die "$CONF_NAME: PROFILE_PURPOSE must be serving or diagnostic" ;;
  esac
  tp=$(engine_arg_value --tensor-parallel-size 1)
  pp=$(engine_arg_value --pipeline-parallel-size 1)
  [[ "$tp" =~ ^[1-9][0-9]*$ ]] \
    || die "$CONF_NAME: tensor parallel size must be positive"
  [[ "$pp" =~ ^[1-9][0-9]*$ ]] \
    || die "$CONF_NAME: pipeline parallel size must be positive"
  world=$((tp * pp))
  if [ "$world" -ne "$NODES" ]; then
    die "$CONF_NAME: exact profile mismatch: TP=$tp × PP=$pp = $world, but NODES=$NODES"
  fi
  if [ "$NODES" -gt 1 ]; then
    [ "$TOPOLOGY_CLASS" = roce-full-mesh ] \
      || die "$CONF_NAME: multi-node profile requires TOPOLOGY_CLASS=roce-full-mesh"
    [[ "$MIN_RAILS_PER_PAIR" =~ ^[1-9][0-9]*$ ]] \
      || die "$CONF_NAME: MIN_RAILS_PER_PAIR must be positive"
    [ "$(engine_arg_value --distributed-executor-backend "")" = mp ] \
      || die "$CONF_NAME: validated multi-node profiles require --distributed-executor-backend mp"
  elif [ "$TOPOLOGY_CLASS" != single ]; then
    die "$CONF_NAME: single-node profile requires TOPOLOGY_CLASS=single"
  fi
}

model_source_kind() {
  # hf | nfs
  case "${MODEL:-}" in
    /*) echo nfs ;;
    *)  echo hf ;;
  esac
}

hf_hub_dirname() {
  # org/name -> models--org--name
  local m="${1:-$MODEL}"
  echo "models--${m//\//--}"
}

hf_hub_cache_root() {
  echo "${HF_CACHE}/hub"
}

hf_hub_path() {
  echo "$(hf_hub_cache_root)/$(hf_hub_dirname "${1:-$MODEL}")"
}

# Compatibility location produced when `hf download --cache-dir "$HF_CACHE"`
# is used even though HF_CACHE is Pulsar's Hugging Face home directory.
hf_legacy_hub_path() {
  echo "${HF_CACHE}/$(hf_hub_dirname "${1:-$MODEL}")"
}

has_spec_args() {
  [ "${#SPEC_DECODE_ARGS[@]}" -gt 0 ]
}

# Set a caller-owned speculative-decode mode while rejecting contradictory
# overrides. Valid modes are auto (profile policy), on, and off.
set_spec_decode_mode() {
  local var_name="${1:?set_spec_decode_mode: variable name required}"
  local requested="${2:?set_spec_decode_mode: requested mode required}"
  local -n mode_ref="$var_name"
  case "$requested" in
    on|off) ;;
    *) die "invalid speculative-decode mode: $requested" ;;
  esac
  if [ "$mode_ref" != "auto" ] && [ "$mode_ref" != "$requested" ]; then
    die "--spec-decode and --no-spec-decode are mutually exclusive"
  fi
  mode_ref="$requested"
}

# Resolve profile policy plus an explicit CLI override. Call after load_conf.
# RECOMMENDED_SPEC is executable policy: 1 means the validated fast path is the
# default. SPEC_DECODE_ENABLED and SPEC_DECODE_SOURCE are set for the caller.
resolve_spec_decode() {
  local mode="${1:-auto}"
  case "$mode" in
    auto)
      if [ "${RECOMMENDED_SPEC:-0}" = "1" ]; then
        has_spec_args || die "$CONF_NAME sets RECOMMENDED_SPEC=1 without validated SPEC_DECODE_ARGS"
        SPEC_DECODE_ENABLED=1
        SPEC_DECODE_SOURCE="profile-default"
      else
        SPEC_DECODE_ENABLED=0
        SPEC_DECODE_SOURCE="profile-default"
      fi
      ;;
    on)
      has_spec_args || die "$CONF_NAME has no validated SPEC_DECODE_ARGS; refusing --spec-decode"
      SPEC_DECODE_ENABLED=1
      SPEC_DECODE_SOURCE="forced-on"
      ;;
    off)
      SPEC_DECODE_ENABLED=0
      SPEC_DECODE_SOURCE="forced-off"
      ;;
    *) die "invalid speculative-decode mode: $mode" ;;
  esac
}

status_is_tested() {
  case "${STATUS}" in
    tested|tested+soaked|tested*) return 0 ;;
    *) return 1 ;;
  esac
}

# Historical name: true for blocked* only. Prefer status_requires_force for gates.
status_is_blocked() {
  case "${STATUS}" in
    blocked*|BLOCKED*|do-not-use|DO-NOT-USE*) return 0 ;;
    *) return 1 ;;
  esac
}

# Ship default: only STATUS=tested* may launch without --force.
status_is_launchable() {
  status_is_tested
}

status_requires_force() {
  if status_is_launchable; then
    return 1
  fi
  return 0
}

mem_available_gib_local() {
  if [ -r /proc/meminfo ]; then
    local kb
    kb=$(awk '/MemAvailable:/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
    awk -v kb="${kb:-0}" 'BEGIN { printf "%.2f", kb / 1048576 }'
    return
  fi
  # macOS authoring host — not a serve target; report high so dry-runs can proceed
  if command -v vm_stat >/dev/null 2>&1; then
    python3 - <<'PY' 2>/dev/null || echo "64.00"
import subprocess, re
out = subprocess.check_output(["vm_stat"], text=True)
page = 4096
m = re.search(r"page size of (\d+)", out)
if m:
    page = int(m.group(1))
free = speculative = inactive = 0
for line in out.splitlines():
    if line.startswith("Pages free"):
        free = int(line.split(":")[1].strip().rstrip("."))
    elif line.startswith("Pages speculative"):
        speculative = int(line.split(":")[1].strip().rstrip("."))
    elif line.startswith("Pages inactive"):
        inactive = int(line.split(":")[1].strip().rstrip("."))
# rough available ≈ free+speculative+inactive
print(f"{(free+speculative+inactive)*page/1073741824:.2f}")
PY
    return
  fi
  echo "0"
}


mem_available_gib_remote() {
  local host="${1:?}"
  "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" \
    "awk '/MemAvailable:/ {printf \"%.2f\", \$2/1048576}' /proc/meminfo" 2>/dev/null \
    || echo "0"
}

disk_free_gib() {
  local path="${1:-$HF_CACHE}"
  df -BG "$path" 2>/dev/null | awk 'NR==2 {gsub(/G/,""); print $4}' || echo 0
}

# Free space on worker under the same path (HF_CACHE layout).
disk_free_gib_remote() {
  local path="${1:-$HF_CACHE}"
  [ -n "${WORKER_IP:-}" ] || { echo 0; return; }
  ssh_worker "df -BG $(printf '%q' "$path") 2>/dev/null | awk 'NR==2 {gsub(/G/,\"\"); print \$4}'" 2>/dev/null || echo 0
}

parse_kv_cache_bytes() {
  local i=0
  while [ $i -lt ${#ENGINE_ARGS[@]} ]; do
    case "${ENGINE_ARGS[$i]}" in
      --kv-cache-memory-bytes)
        i=$((i + 1))
        echo "${ENGINE_ARGS[$i]}"
        return 0
        ;;
      --kv-cache-memory-bytes=*)
        echo "${ENGINE_ARGS[$i]#--kv-cache-memory-bytes=}"
        return 0
        ;;
    esac
    i=$((i + 1))
  done
  echo ""
}

parse_max_model_len() {
  local i=0
  while [ $i -lt ${#ENGINE_ARGS[@]} ]; do
    case "${ENGINE_ARGS[$i]}" in
      --max-model-len)
        i=$((i + 1))
        echo "${ENGINE_ARGS[$i]}"
        return 0
        ;;
      --max-model-len=*)
        echo "${ENGINE_ARGS[$i]#--max-model-len=}"
        return 0
        ;;
    esac
    i=$((i + 1))
  done
  echo ""
}

bytes_to_gib() {
  awk -v b="${1:-0}" 'BEGIN { printf "%.2f", b / 1073741824 }'
}

# Best-effort directory size in GiB (du -sb or -sk).
dir_size_gib() {
  local p="$1"
  [ -e "$p" ] || { echo 0; return; }
  if du -sb "$p" >/dev/null 2>&1; then
    awk -v b="$(du -sb "$p" 2>/dev/null | awk '{print $1}')" 'BEGIN{printf "%.2f", b/1073741824}'
  else
    awk -v k="$(du -sk "$p" 2>/dev/null | awk '{print $1}')" 'BEGIN{printf "%.2f", k/1048576}'
  fi
}

estimate_weights_gib() {
  # Disk footprint for pull-weights (full HF/NFS tree).
  if [ -n "${WEIGHTS_GIB}" ]; then
    echo "$WEIGHTS_GIB"
    return
  fi
  local kind sz
  kind=$(model_source_kind)
  if [ "$kind" = nfs ]; then
    sz=$(dir_size_gib "$MODEL")
  else
    sz=$(dir_size_gib "$(hf_hub_path)")
  fi
  if awk -v s="$sz" 'BEGIN{exit !(s>0.1)}'; then
    echo "$sz"
  else
    echo "5"
  fi
}

# Unified-memory weight footprint for check-memory (full model GiB).
# Prefer WEIGHTS_RAM_GIB when disk ≠ resident RAM (quantized / MoE).
estimate_weights_ram_gib() {
  if [ -n "${WEIGHTS_RAM_GIB:-}" ]; then
    echo "$WEIGHTS_RAM_GIB"
    return
  fi
  estimate_weights_gib
}

estimate_kv_gib() {
  if [ -n "${KV_GIB}" ]; then
    echo "$KV_GIB"
    return
  fi
  local b
  b=$(parse_kv_cache_bytes)
  if [ -n "$b" ]; then
    bytes_to_gib "$b"
    return
  fi
  # No fixed KV — modest default; confs should set KV_GIB when known
  if [ -n "${WEIGHTS_GIB}" ] && awk -v w="$WEIGHTS_GIB" 'BEGIN{exit !(w+0 < 10)}'; then
    echo "2"
  else
    echo "6"
  fi
}

json_escape() {
  python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()[:-1] if False else sys.argv[1]))' "$1" 2>/dev/null \
    || printf '"%s"' "${1//\"/\\\"}"
}

# Validate the stable inventory JSON boundary before callers make lifecycle
# decisions from it. Empty, malformed, or structurally incomplete output is an
# observability failure, never an empty-machine state.
inventory_json_is_valid() {
  local payload="${1:-}"
  [ -n "$payload" ] || return 1
  printf '%s' "$payload" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except Exception:
    raise SystemExit(1)
ok = (
    isinstance(d, dict)
    and d.get("schema_version") == 1
    and isinstance(d.get("services"), list)
    and isinstance(d.get("worker"), dict)
    and isinstance(d.get("nodes"), dict)
    and isinstance(d["nodes"].get("head"), dict)
)
raise SystemExit(0 if ok else 1)
' >/dev/null 2>&1
}

# Validate both check-memory's JSON contract and its three documented statuses.
# This prevents crashes, signals, and malformed helper output from becoming an
# implicit PASS.
memory_preflight_json_is_valid() {
  local payload="${1:-}" rc="${2:-}"
  [ -n "$payload" ] || return 1
  case "$rc" in
    0|1|2) ;;
    *) return 1 ;;
  esac
  printf '%s' "$payload" | RC="$rc" python3 -c '
import json, os, sys
try:
    d = json.load(sys.stdin)
except Exception:
    raise SystemExit(1)
expected = {"0": "pass", "1": "fail", "2": "warn"}[os.environ["RC"]]
required = ("result", "mode", "footprint_gib", "need_start_gib", "head_available_gib")
ok = (
    isinstance(d, dict)
    and all(k in d for k in required)
    and d.get("result") == expected
    and d.get("mode") in ("cold-start", "already-loaded")
)
raise SystemExit(0 if ok else 1)
' >/dev/null 2>&1
}

pulsar_api_key() {
  printf '%s' "${VLLM_API_KEY:-${API_KEY:-}}"
}

# Fill a caller-owned argv array with the OpenAI-compatible Authorization
# header when API auth is configured. Keeping the header as two argv elements
# avoids shell re-parsing and command injection.
api_auth_curl_args() {
  local destination="${1:?auth argv destination required}"
  local key
  key=$(pulsar_api_key)
  local -n destination_ref="$destination"
  destination_ref=()
  if [ -n "$key" ]; then
    destination_ref=(-H "Authorization: Bearer $key")
  fi
}

# Serialize argv for an SSH remote command without reinterpreting it locally.
shell_join_q() {
  local out="" arg
  for arg in "$@"; do
    out+="$(printf '%q' "$arg") "
  done
  printf '%s' "${out% }"
}

# Render diagnostic/dry-run argv without disclosing credentials. Execution
# paths must continue to use the original arrays.
shell_join_q_redacted() {
  local out="" arg shown redact_next=0
  for arg in "$@"; do
    shown="$arg"
    if [ "$redact_next" = 1 ]; then
      shown="<redacted>"
      redact_next=0
    else
      case "$arg" in
        --api-key)
          redact_next=1
          ;;
        HF_TOKEN=*|VLLM_API_KEY=*|API_KEY=*)
          shown="${arg%%=*}=<redacted>"
          ;;
      esac
    fi
    out+="$(printf '%q' "$shown") "
  done
  printf '%s' "${out% }"
}

print_shell_command_redacted() {
  shell_join_q_redacted "$@"
  printf '\n'
}

# Injectable docker/ssh for deterministic tests. Production leaves these default.
PULSAR_DOCKER="${PULSAR_DOCKER:-docker}"
PULSAR_SSH="${PULSAR_SSH:-ssh}"
PULSAR_WEIGHT_FABRIC_TOOL="${PULSAR_WEIGHT_FABRIC_TOOL:-$REPO_DIR/scripts/weight-fabric.sh}"
PULSAR_SSH_CONNECT_TIMEOUT="${PULSAR_SSH_CONNECT_TIMEOUT:-8}"
PULSAR_SSH_OPTS=(
  -o BatchMode=yes
  -o "ConnectTimeout=${PULSAR_SSH_CONNECT_TIMEOUT}"
  -o ConnectionAttempts=1
  -o ServerAliveInterval=5
  -o ServerAliveCountMax=2
)

ssh_node() {
  local rank="${1:?rank required}"
  shift
  [ "$rank" -gt 0 ] 2>/dev/null || die "ssh_node requires a remote rank (>0)"
  require_cluster_nodes "$((rank + 1))" \
    || die "rank $rank is not present in the confirmed topology"
  local host="${CLUSTER_NODE_SSH_HOSTS[$rank]}"
  "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" "$@"
}

ssh_worker() {
  # Compatibility wrapper: explicit legacy WORKER_IP remains a bounded SSH
  # endpoint when no confirmed manifest exists.
  if [ ! -f "$CLUSTER_TOPOLOGY_FILE" ] && [ -n "${WORKER_IP:-}" ]; then
    "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$WORKER_IP" "$@"
  else
    ssh_node 1 "$@"
  fi
}


# Resolve a physical target for a one-node profile. The selector is intentionally
# stable across topology reordering: callers should pass a topology node_id (the
# wizard does), although an exact hostname, SSH endpoint, control IP, or role key
# is also accepted for operator convenience. An empty selector preserves the
# historical local-node behavior.
#
# Sets:
#   SINGLE_NODE_INDEX       zero-based topology position
#   SINGLE_NODE_KEY         head|worker|rank-N inventory key
#   SINGLE_NODE_ID          stable topology node_id (may be empty standalone)
#   SINGLE_NODE_HOSTNAME    human-facing hostname
#   SINGLE_NODE_SSH_HOST    local or BatchMode SSH endpoint
#   SINGLE_NODE_CONTROL_IP  API/control address when known
#   SINGLE_NODE_REMOTE      0 local, 1 remote
#   SINGLE_NODE_TOPOLOGY_ID confirmed topology identity when known
single_node_key_for_index() {
  local index="${1:?node index required}"
  case "$index" in
    0) printf 'head\n' ;;
    1) printf 'worker\n' ;;
    *[!0-9]*|"") return 1 ;;
    *) printf 'rank-%s\n' "$index" ;;
  esac
}

single_node_index_for_key() {
  local key="${1:?node key required}" index
  case "$key" in
    head) printf '0\n' ;;
    worker) printf '1\n' ;;
    rank-*)
      index="${key#rank-}"
      [[ "$index" =~ ^[0-9]+$ ]] || return 1
      printf '%s\n' "$index"
      ;;
    *) return 1 ;;
  esac
}

resolve_single_node_placement() {
  local selector="${1:-}" index=-1 rank local_host
  load_cluster_topology || return 1

  if [ "$CLUSTER_TOPOLOGY_COUNT" -le 0 ]; then
    case "$selector" in
      ""|local|this-node|head) ;;
      *)
        warn "node '$selector' is not present: no confirmed topology is loaded"
        return 1
        ;;
    esac
    local_host=$(hostname -s 2>/dev/null || hostname 2>/dev/null || echo localhost)
    SINGLE_NODE_INDEX=0
    SINGLE_NODE_KEY=head
    SINGLE_NODE_ID=""
    SINGLE_NODE_HOSTNAME="$local_host"
    SINGLE_NODE_SSH_HOST=local
    SINGLE_NODE_CONTROL_IP=127.0.0.1
    SINGLE_NODE_REMOTE=0
    SINGLE_NODE_TOPOLOGY_ID=""
    return 0
  fi

  case "$selector" in
    ""|local|this-node|head)
      index=0
      ;;
    *)
      for ((rank = 0; rank < CLUSTER_TOPOLOGY_COUNT; rank++)); do
        if [ "$selector" = "${CLUSTER_NODE_IDS[$rank]:-}" ] \
            || [ "$selector" = "${CLUSTER_NODE_HOSTNAMES[$rank]:-}" ] \
            || [ "$selector" = "${CLUSTER_NODE_SSH_HOSTS[$rank]:-}" ] \
            || [ "$selector" = "${CLUSTER_NODE_CONTROL_IPS[$rank]:-}" ] \
            || [ "$selector" = "$(single_node_key_for_index "$rank")" ]; then
          [ "$index" -eq -1 ] || {
            warn "node selector '$selector' is ambiguous in the confirmed topology"
            return 1
          }
          index="$rank"
        fi
      done
      ;;
  esac

  if [ "$index" -lt 0 ] || [ "$index" -ge "$CLUSTER_TOPOLOGY_COUNT" ]; then
    warn "node '$selector' is not present in the confirmed topology"
    return 1
  fi

  SINGLE_NODE_INDEX="$index"
  SINGLE_NODE_KEY=$(single_node_key_for_index "$index") || return 1
  SINGLE_NODE_ID="${CLUSTER_NODE_IDS[$index]:-}"
  SINGLE_NODE_HOSTNAME="${CLUSTER_NODE_HOSTNAMES[$index]:-${CLUSTER_NODE_SSH_HOSTS[$index]:-unknown}}"
  SINGLE_NODE_SSH_HOST="${CLUSTER_NODE_SSH_HOSTS[$index]:-}"
  SINGLE_NODE_CONTROL_IP="${CLUSTER_NODE_CONTROL_IPS[$index]:-}"
  SINGLE_NODE_TOPOLOGY_ID="${CLUSTER_TOPOLOGY_ID:-}"
  if [ "$index" -eq 0 ]; then
    SINGLE_NODE_REMOTE=0
    [ -n "$SINGLE_NODE_SSH_HOST" ] || SINGLE_NODE_SSH_HOST=local
    [ -n "$SINGLE_NODE_CONTROL_IP" ] || SINGLE_NODE_CONTROL_IP=127.0.0.1
  else
    SINGLE_NODE_REMOTE=1
    [ -n "$SINGLE_NODE_ID" ] || {
      warn "confirmed node $index has no stable node_id"
      return 1
    }
    [ -n "$SINGLE_NODE_SSH_HOST" ] \
      && [ "$SINGLE_NODE_SSH_HOST" != local ] || {
      warn "confirmed node $index has no remote SSH endpoint"
      return 1
    }
  fi
}

single_node_display() {
  local suffix=""
  [ "${SINGLE_NODE_REMOTE:-0}" = 0 ] && suffix=" (this node)"
  printf '%s%s\n' "${SINGLE_NODE_HOSTNAME:-unknown}" "$suffix"
}

single_node_api_host() {
  local host="${SINGLE_NODE_CONTROL_IP:-}"
  [ -n "$host" ] || host="${SINGLE_NODE_SSH_HOST:-127.0.0.1}"
  host="${host#*@}"
  if [[ "$host" == *:* ]] && [[ "$host" != \[*\] ]]; then
    host="[$host]"
  fi
  printf '%s\n' "$host"
}

single_node_api_base_url() {
  local port="${1:?port required}"
  if [ "${SINGLE_NODE_REMOTE:-0}" = 0 ]; then
    printf 'http://127.0.0.1:%s\n' "$port"
  else
    printf 'http://%s:%s\n' "$(single_node_api_host)" "$port"
  fi
}

PULSAR_MANAGED_LABEL="io.pulsar.gb10.managed"
PULSAR_CONF_LABEL="io.pulsar.gb10.conf"
PULSAR_RANK_LABEL="io.pulsar.gb10.rank"
PULSAR_WORLD_SIZE_LABEL="io.pulsar.gb10.world-size"
PULSAR_TOPOLOGY_LABEL="io.pulsar.gb10.topology"
PULSAR_NODE_ID_LABEL="io.pulsar.gb10.node-id"
PULSAR_WEIGHT_SOURCE_LABEL="io.pulsar.gb10.weight-source"
PULSAR_WEIGHT_OWNER_LABEL="io.pulsar.gb10.weight-owner"
PULSAR_WEIGHT_CONFIG_LABEL="io.pulsar.gb10.weight-config"

require_topology_rewrite_idle() {
  local manifest="${1:?topology manifest required}"
  local rows kind rank node_id hostname ssh_host control_ip control_if hcas rdma_ifs
  local running remote_query

  if ! rows=$(python3 "$REPO_DIR/scripts/topology_manifest.py" rows "$manifest"); then
    warn "cannot validate topology membership before rewrite: $manifest"
    return 1
  fi
  while IFS=$'\t' read -r kind rank node_id hostname ssh_host \
      control_ip control_if hcas rdma_ifs; do
    [ "$kind" = NODE ] || continue
    running=""
    if [ "$rank" = 0 ]; then
      if ! running=$("$PULSAR_DOCKER" ps -q \
          --filter "label=${PULSAR_MANAGED_LABEL}=true" 2>/dev/null); then
        warn "cannot query rank 0 Docker before topology rewrite"
        return 1
      fi
    else
      printf -v remote_query 'docker ps -q --filter %q' \
        "label=${PULSAR_MANAGED_LABEL}=true"
      if ! running=$("$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- \
          "$ssh_host" "$remote_query" 2>/dev/null); then
        warn "cannot query rank $rank Docker on $ssh_host before topology rewrite"
        return 1
      fi
    fi
    if [ -n "$running" ]; then
      warn "rank $rank ($hostname) has running stack-managed containers"
      return 1
    fi
  done <<<"$rows"
}

# Inspect / list probe codes (not remove codes):
#   0 = present / success (payload on stdout)
#   1 = operational error (SSH/Docker unreachable or failed)
#   3 = absent (healthy daemon, object not found)
# Remove codes: 0 ok, 1 operational error, 2 ownership refusal.

container_name_for() {
  local name="$1" nodes="${2:-1}"
  if [ "$nodes" -gt 1 ] 2>/dev/null; then
    echo "vllm-cluster-${name}"
  else
    echo "vllm-${name}"
  fi
}

# Expected rank label for a conf on a placement node (head|worker|rank).
expected_rank_for_nodes() {
  local nodes="${1:?}" placement="${2:-head}"
  if [ "$nodes" -gt 1 ] 2>/dev/null; then
    case "$placement" in
      head|0) echo 0 ;;
      worker) echo 1 ;;
      *[!0-9]*|"") die "expected_rank_for_nodes: bad placement $placement" ;;
      *)
        [ "$placement" -lt "$nodes" ] \
          || die "expected_rank_for_nodes: rank $placement outside NODES=$nodes"
        echo "$placement"
        ;;
    esac
  else
    echo single
  fi
}

# NODES from models/<conf>.conf without sourcing the full profile (default 1).
profile_nodes_for_conf() {
  local conf="${1:?}"
  local path="$REPO_DIR/models/${conf}.conf"
  [ -f "$path" ] || return 1
  local nodes
  nodes=$(awk -F= '
    /^[[:space:]]*NODES=/ {
      v=$0
      sub(/^[^=]*=/, "", v)
      gsub(/[[:space:]"'\'']/, "", v)
      print v
      found=1
      exit
    }
    END { if (!found) print "1" }
  ' "$path")
  [ -n "$nodes" ] || nodes=1
  printf '%s' "$nodes"
}

# True when conf exists and rank is valid for head, any worker, or a rank.
placement_rank_allowed() {
  local conf="${1:?}" rank="${2:?}" placement="${3:?}"
  local nodes
  nodes=$(profile_nodes_for_conf "$conf") || return 1
  if [ "$nodes" -eq 1 ]; then
    [ "$rank" = single ] || return 1
    placement_index_for_role "$placement" >/dev/null
    return
  fi
  case "$placement" in
    head) [ "$rank" = 0 ] ;;
    worker)
      [[ "$rank" =~ ^[1-9][0-9]*$ ]] \
        && [ "$rank" -lt "$nodes" ]
      ;;
    rank-*)
      local index
      index=$(placement_index_for_role "$placement") || return 1
      [ "$rank" = "$index" ] && [ "$index" -lt "$nodes" ]
      ;;
    *[!0-9]*|"") return 1 ;;
    *)
      [ "$rank" = "$placement" ] \
        && [ "$rank" -lt "$nodes" ]
      ;;
  esac
}

# docker-inspect --format payload for lifecycle ownership checks (id + labels only).
container_ownership_inspect_format() {
  printf '%s' \
    '{"id":{{json .Id}},"name":{{json .Name}},"labels":{{json .Config.Labels}}}'
}

# Parse ownership inspect JSON → tab fields: id, name, managed, conf, rank
# name has leading '/' stripped. Empty fields when labels missing.
container_ownership_fields() {
  local metadata="${1:?}"
  printf '%s' "$metadata" | python3 -c '
import json, sys
meta = json.load(sys.stdin)
labels = meta.get("labels") or {}
if labels is None:
    labels = {}
cid = str(meta.get("id") or "")
name = str(meta.get("name") or "").lstrip("/")
managed = str(labels.get(sys.argv[1], "") or "")
conf = str(labels.get(sys.argv[2], "") or "")
rank = str(labels.get(sys.argv[3], "") or "")
print("\t".join([cid, name, managed, conf, rank]))
' "$PULSAR_MANAGED_LABEL" "$PULSAR_CONF_LABEL" "$PULSAR_RANK_LABEL"
}

# Exactly managed="true" (launchers/inventory); never 1/yes/TRUE.
container_managed_label_is_true() {
  local managed="${1:-}"
  [ "$managed" = "true" ]
}

container_placement_identity_fields() {
  local metadata="${1:?}"
  printf '%s' "$metadata" | python3 -c '
import json, sys
labels = json.load(sys.stdin).get("labels") or {}
print("\t".join([
    str(labels.get(sys.argv[1], "") or ""),
    str(labels.get(sys.argv[2], "") or ""),
]))
' "$PULSAR_TOPOLOGY_LABEL" "$PULSAR_NODE_ID_LABEL"
}

placement_index_for_role() {
  local placement="${1:?}" index
  case "$placement" in
    head) printf '0\n' ;;
    worker) printf '1\n' ;;
    rank-*)
      index="${placement#rank-}"
      [[ "$index" =~ ^[0-9]+$ ]] || return 1
      printf '%s\n' "$index"
      ;;
    *[!0-9]*|"") return 1 ;;
    *) printf '%s\n' "$placement" ;;
  esac
}

# New remote one-node containers must prove the physical topology node where
# they were observed. Missing identity remains a compatibility path only for
# historical local one-node containers.
container_single_node_identity_is_proven() {
  local metadata="${1:?}" placement="${2:?}" index expected_id have_topology have_id
  index=$(placement_index_for_role "$placement") || return 1
  load_cluster_topology || return 1
  IFS=$'\t' read -r have_topology have_id \
    < <(container_placement_identity_fields "$metadata")

  if [ -z "$have_id" ]; then
    [ "$index" -eq 0 ]
    return
  fi
  [ "$index" -lt "$CLUSTER_TOPOLOGY_COUNT" ] || return 1
  expected_id="${CLUSTER_NODE_IDS[$index]:-}"
  [ -n "$expected_id" ] && [ "$have_id" = "$expected_id" ] || return 1
  if [ -n "$have_topology" ] && [ -n "${CLUSTER_TOPOLOGY_ID:-}" ]; then
    [ "$have_topology" = "$CLUSTER_TOPOLOGY_ID" ] || return 1
  fi
  return 0
}

container_single_node_identity_refuse_reason() {
  local metadata="${1:?}" placement="${2:?}" index expected_id have_topology have_id
  index=$(placement_index_for_role "$placement" 2>/dev/null || echo "?")
  IFS=$'\t' read -r have_topology have_id \
    < <(container_placement_identity_fields "$metadata")
  if [ -z "$have_id" ]; then
    if [ "$index" = 0 ]; then
      echo "local legacy single-node container has no node-id"
    else
      echo "remote single-node container has no ${PULSAR_NODE_ID_LABEL}"
    fi
    return
  fi
  load_cluster_topology >/dev/null 2>&1 || {
    echo "confirmed topology is unavailable"
    return
  }
  expected_id="${CLUSTER_NODE_IDS[$index]:-}"
  if [ -z "$expected_id" ] || [ "$have_id" != "$expected_id" ]; then
    echo "node-id mismatch (have='${have_id}' expected='${expected_id:-unknown}')"
    return
  fi
  if [ -n "$have_topology" ] && [ -n "${CLUSTER_TOPOLOGY_ID:-}" ] \
      && [ "$have_topology" != "$CLUSTER_TOPOLOGY_ID" ]; then
    echo "topology label mismatch"
    return
  fi
  echo "physical node identity not proven"
}

container_removal_is_proven() {
  local metadata="${1:?}" want_conf="${2:-}" want_rank="${3:-}" placement="${4:-}"
  container_ownership_is_proven "$metadata" "$want_conf" "$want_rank" || return 1
  if [ -n "$placement" ]; then
    container_single_node_identity_is_proven "$metadata" "$placement" || return 1
  fi
}

container_removal_refuse_reason() {
  local metadata="${1:?}" want_conf="${2:-}" want_rank="${3:-}" placement="${4:-}"
  if ! container_ownership_is_proven "$metadata" "$want_conf" "$want_rank"; then
    container_ownership_refuse_reason "$metadata" "$want_conf" "$want_rank"
  elif [ -n "$placement" ] \
      && ! container_single_node_identity_is_proven "$metadata" "$placement"; then
    container_single_node_identity_refuse_reason "$metadata" "$placement"
  else
    echo "ownership not proven"
  fi
}

# True when labels prove stack management for want_conf/want_rank.
# want_conf / want_rank empty means "not constrained by caller" for that field
# (still requires non-empty conf/rank and managed=true). Used by named stops.
# Lifecycle removal never accepts unlabeled/legacy argv fallbacks.
container_ownership_is_proven() {
  local metadata="${1:?}" want_conf="${2:-}" want_rank="${3:-}"
  local id name managed conf rank
  IFS=$'\t' read -r id name managed conf rank < <(container_ownership_fields "$metadata")
  [ -n "$id" ] || return 1
  container_managed_label_is_true "$managed" || return 1
  [ -n "$conf" ] || return 1
  [ -n "$rank" ] || return 1
  if [ -n "$want_conf" ] && [ "$conf" != "$want_conf" ]; then
    return 1
  fi
  if [ -n "$want_rank" ] && [ "$rank" != "$want_rank" ]; then
    return 1
  fi
  return 0
}

# --all candidate: managed=true, conf in models/*.conf, rank valid for placement.
container_all_candidate_is_safe() {
  local metadata="${1:?}" placement="${2:?}"
  local id name managed conf rank
  IFS=$'\t' read -r id name managed conf rank < <(container_ownership_fields "$metadata")
  [ -n "$id" ] || return 1
  container_managed_label_is_true "$managed" || return 1
  [ -n "$conf" ] || return 1
  [ -n "$rank" ] || return 1
  [ -f "$REPO_DIR/models/${conf}.conf" ] || return 1
  placement_rank_allowed "$conf" "$rank" "$placement" || return 1
  local nodes
  nodes=$(profile_nodes_for_conf "$conf") || return 1
  if [ "$nodes" -eq 1 ]; then
    container_single_node_identity_is_proven "$metadata" "$placement"
  fi
}

# Describe why ownership failed (for refuse messages). Never claims safe to remove.
container_ownership_refuse_reason() {
  local metadata="${1:?}" want_conf="${2:-}" want_rank="${3:-}"
  local id name managed conf rank
  IFS=$'\t' read -r id name managed conf rank < <(container_ownership_fields "$metadata")
  if [ -z "$id" ]; then
    echo "missing container id"
    return
  fi
  if ! container_managed_label_is_true "$managed"; then
    if [ -z "$managed" ] && [ -z "$conf" ] && [ -z "$rank" ]; then
      echo "unlabeled/legacy container (no ${PULSAR_MANAGED_LABEL})"
    else
      echo "not stack-managed (managed='${managed}'; require exactly 'true')"
    fi
    return
  fi
  if [ -z "$conf" ] || [ -z "$rank" ]; then
    echo "managed label set but conf/rank incomplete (conf='${conf}' rank='${rank}')"
    return
  fi
  if [ -n "$want_conf" ] && [ "$conf" != "$want_conf" ]; then
    echo "conf label mismatch (have='${conf}' want='${want_conf}')"
    return
  fi
  if [ -n "$want_rank" ] && [ "$rank" != "$want_rank" ]; then
    echo "rank label mismatch (have='${rank}' want='${want_rank}')"
    return
  fi
  echo "ownership not proven"
}

container_all_refuse_reason() {
  local metadata="${1:?}" placement="${2:?}"
  local id name managed conf rank nodes
  IFS=$'\t' read -r id name managed conf rank < <(container_ownership_fields "$metadata")
  if ! container_managed_label_is_true "$managed"; then
    container_ownership_refuse_reason "$metadata" "" ""
    return
  fi
  if [ -z "$conf" ] || [ -z "$rank" ]; then
    echo "managed label set but conf/rank incomplete (conf='${conf}' rank='${rank}')"
    return
  fi
  if [ ! -f "$REPO_DIR/models/${conf}.conf" ]; then
    echo "unknown conf '${conf}' (no models/${conf}.conf)"
    return
  fi
  if ! nodes=$(profile_nodes_for_conf "$conf"); then
    echo "cannot read NODES for conf '${conf}'"
    return
  fi
  if ! placement_rank_allowed "$conf" "$rank" "$placement"; then
    echo "placement mismatch on ${placement}: conf=${conf} nodes=${nodes} rank=${rank}"
    return
  fi
  if [ "$nodes" -eq 1 ] \
      && ! container_single_node_identity_is_proven "$metadata" "$placement"; then
    container_single_node_identity_refuse_reason "$metadata" "$placement"
    return
  fi
  echo "ownership not proven"
}

# Validate docker run -d stdout: exactly one 64-hex id (optional trailing newline).
# Prints normalized id on success; returns 1 on garbage/extra stdout.
parse_docker_run_container_id() {
  local raw="${1-}"
  local id
  id=$(printf '%s' "$raw")
  id="${id%"${id##*[![:space:]]}"}"
  id="${id#"${id%%[![:space:]]*}"}"
  case "$id" in
    *$'\n'*|*$'\r'*|*' '*) return 1 ;;
  esac
  [[ "$id" =~ ^[0-9a-fA-F]{64}$ ]] || return 1
  printf '%s' "$id"
}

# Merge lifecycle remove exit codes. Severity: 1 (operational) > 2 (refuse) > 0.
# Used so a later refusal never masks an earlier operational error.
lifecycle_merge_rc() {
  local cur="${1:-0}" new="${2:-0}"
  if [ "$new" -eq 0 ]; then
    printf '%s' "$cur"
    return 0
  fi
  if [ "$cur" -eq 1 ] || [ "$new" -eq 1 ]; then
    printf '%s' 1
    return 0
  fi
  if [ "$cur" -eq 2 ] || [ "$new" -eq 2 ]; then
    printf '%s' 2
    return 0
  fi
  printf '%s' "$new"
}

# When docker run appears to succeed but stdout is not a valid container id,
# refuse arbitrary cleanup. Optionally read-only inspect exact name; if labels
# prove ownership for conf/rank, mention the short id — never remove it.
# Prints guidance: scripts/inventory.sh then scripts/down.sh <conf>.
# Usage: report_untracked_launch_container <role> <conf> <rank> <cname> [host]
# role is local|remote; head|worker remain compatibility aliases.
report_untracked_launch_container() {
  local role="${1:?}" conf="${2:?}" rank="${3:?}" cname="${4:?}" host="${5:-}"
  local meta rc=0 id short where

  case "$role" in
    head|local) where="local rank $rank" ;;
    worker|remote) where="rank $rank (${host:-?})" ;;
    *) where="$role" ;;
  esac

  warn "docker run on ${where} returned invalid container id output — refusing arbitrary cleanup"
  warn "a managed container for conf=${conf} may have been created and was deliberately left untouched"
  warn "safe remediation: scripts/inventory.sh   then   scripts/down.sh ${conf}"

  meta=""
  if [ -n "$host" ]; then
    meta=$(container_ownership_inspect_remote "$host" "$cname") || rc=$?
  else
    meta=$(container_ownership_inspect_local "$cname") || rc=$?
  fi
  if [ "$rc" -eq 0 ] && container_ownership_is_proven "$meta" "$conf" "$rank"; then
    IFS=$'\t' read -r id _ < <(container_ownership_fields "$meta")
    short="${id:0:12}"
    warn "read-only inspect: exact name ${cname} on ${where} has proven labels id=${short} (not removed)"
  fi
  return 0
}

# Local inspect: 0 present (JSON stdout), 3 absent, 1 docker error.
container_ownership_inspect_local() {
  local ref="${1:?}"
  local format meta
  format=$(container_ownership_inspect_format)
  if meta=$("$PULSAR_DOCKER" inspect --format "$format" "$ref" 2>/dev/null); then
    [ -n "$meta" ] || return 1
    printf '%s' "$meta"
    return 0
  fi
  if ! "$PULSAR_DOCKER" info >/dev/null 2>&1; then
    return 1
  fi
  return 3
}

# Remote inspect with explicit error-vs-absent. Never masks SSH/Docker failure
# as absence. 0 present, 3 absent, 1 unreachable/error.
container_ownership_inspect_remote() {
  local host="${1:?}" ref="${2:?}"
  local format remote_cmd out status meta
  format=$(container_ownership_inspect_format)
  # Remote protocol (one status line, optional JSON body):
  #   PRESENT\n<json> | ABSENT | DOCKER_ERROR
  remote_cmd="if ! docker info >/dev/null 2>&1; then printf '%s\\n' DOCKER_ERROR; exit 0; fi; "
  remote_cmd+="if meta=\$(docker inspect --format $(printf '%q' "$format") $(printf '%q' "$ref") 2>/dev/null); then "
  remote_cmd+="printf 'PRESENT\\n%s\\n' \"\$meta\"; exit 0; fi; "
  remote_cmd+="printf '%s\\n' ABSENT; exit 0"

  if ! out=$("$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" "$remote_cmd" 2>/dev/null); then
    return 1
  fi
  status=$(printf '%s\n' "$out" | head -n1 | tr -d '\r')
  case "$status" in
    PRESENT)
      meta=$(printf '%s\n' "$out" | tail -n +2)
      # Drop a single trailing newline from the body for JSON parse stability.
      meta="${meta%"${meta##*[![:space:]]}"}"
      [ -n "$meta" ] || return 1
      printf '%s' "$meta"
      return 0
      ;;
    ABSENT)
      return 3
      ;;
    DOCKER_ERROR|*)
      return 1
      ;;
  esac
}

# Verify immutable id is gone. 0 absent, 1 still present or probe error.
container_id_absent_local() {
  local id="${1:?}" rc=0
  container_ownership_inspect_local "$id" >/dev/null 2>&1 && return 1
  rc=$?
  [ "$rc" -eq 3 ]
}

container_id_absent_remote() {
  local host="${1:?}" id="${2:?}" rc=0
  container_ownership_inspect_remote "$host" "$id" >/dev/null 2>&1 && return 1
  rc=$?
  [ "$rc" -eq 3 ]
}

# Remove one local container by exact name only if labels prove ownership.
# Exit 0: removed or absent. Exit 2: present but refused. Exit 1: operational error.
remove_stack_owned_container_local() {
  local name="${1:?}" want_conf="${2:-}" want_rank="${3:-}" placement="${4:-}"
  local meta id name_have managed conf rank meta2 id2 reason short rc

  rc=0
  meta=$(container_ownership_inspect_local "$name") || rc=$?
  if [ "$rc" -eq 3 ]; then
    log "no container named $name"
    return 0
  fi
  if [ "$rc" -ne 0 ]; then
    warn "local docker error while inspecting $name"
    return 1
  fi

  IFS=$'\t' read -r id name_have managed conf rank < <(container_ownership_fields "$meta")
  if ! container_removal_is_proven "$meta" "$want_conf" "$want_rank" "$placement"; then
    reason=$(container_removal_refuse_reason "$meta" "$want_conf" "$want_rank" "$placement")
    warn "refusing to remove $name: $reason"
    return 2
  fi

  short="${id:0:12}"
  rc=0
  meta2=$(container_ownership_inspect_local "$id") || rc=$?
  if [ "$rc" -eq 3 ]; then
    log "container $name ($short) already gone before remove"
    return 0
  fi
  if [ "$rc" -ne 0 ]; then
    warn "local docker error during revalidation of $name id=$short"
    return 1
  fi
  IFS=$'\t' read -r id2 _ < <(container_ownership_fields "$meta2")
  if [ "$id2" != "$id" ] \
      || ! container_removal_is_proven "$meta2" "$want_conf" "$want_rank" "$placement"; then
    reason=$(container_removal_refuse_reason "$meta2" "$want_conf" "$want_rank" "$placement")
    warn "refusing to remove $name: ownership revalidation failed ($reason)"
    return 2
  fi

  log "removing $name id=$short (managed conf=${conf} rank=${rank})"
  if ! "$PULSAR_DOCKER" rm -f "$id" >/dev/null; then
    warn "docker rm -f failed for $name id=$short"
    return 1
  fi
  if ! container_id_absent_local "$id"; then
    warn "container id=$short still present or unverifiable after docker rm -f"
    return 1
  fi
  return 0
}

# Same as local, via SSH to host. Remote docker binary is always "docker".
remove_stack_owned_container_remote() {
  local host="${1:?}" name="${2:?}" want_conf="${3:-}" want_rank="${4:-}" placement="${5:-}"
  local meta id name_have managed conf rank meta2 id2 reason short remote_rm rc

  rc=0
  meta=$(container_ownership_inspect_remote "$host" "$name") || rc=$?
  if [ "$rc" -eq 3 ]; then
    log "no container named $name on $host"
    return 0
  fi
  if [ "$rc" -ne 0 ]; then
    warn "remote host unreachable or Docker error inspecting $name on $host"
    return 1
  fi

  IFS=$'\t' read -r id name_have managed conf rank < <(container_ownership_fields "$meta")
  if ! container_removal_is_proven "$meta" "$want_conf" "$want_rank" "$placement"; then
    reason=$(container_removal_refuse_reason "$meta" "$want_conf" "$want_rank" "$placement")
    warn "refusing to remove $name on $host: $reason"
    return 2
  fi

  short="${id:0:12}"
  rc=0
  meta2=$(container_ownership_inspect_remote "$host" "$id") || rc=$?
  if [ "$rc" -eq 3 ]; then
    log "container $name ($short) on $host already gone before remove"
    return 0
  fi
  if [ "$rc" -ne 0 ]; then
    warn "remote host unreachable during revalidation of $name id=$short on $host"
    return 1
  fi
  IFS=$'\t' read -r id2 _ < <(container_ownership_fields "$meta2")
  if [ "$id2" != "$id" ] \
      || ! container_removal_is_proven "$meta2" "$want_conf" "$want_rank" "$placement"; then
    reason=$(container_removal_refuse_reason "$meta2" "$want_conf" "$want_rank" "$placement")
    warn "refusing to remove $name on $host: ownership revalidation failed ($reason)"
    return 2
  fi

  log "removing $name on $host id=$short (managed conf=${conf} rank=${rank})"
  remote_rm="docker rm -f $(printf '%q' "$id") >/dev/null"
  if ! "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" "$remote_rm"; then
    warn "docker rm -f failed for $name id=$short on $host"
    return 1
  fi
  if ! container_id_absent_remote "$host" "$id"; then
    warn "container id=$short still present or unverifiable on $host after docker rm -f"
    return 1
  fi
  return 0
}

# Inspect an exact container reference on a topology node. Exit codes preserve
# the ownership probe contract: 0 present, 3 absent, 1 operational failure.
container_ownership_inspect_on_node() {
  local index="${1:?node index required}" ref="${2:?container ref required}"
  load_cluster_topology || return 1
  if [ "$index" -eq 0 ]; then
    container_ownership_inspect_local "$ref"
    return
  fi
  [ "$index" -lt "$CLUSTER_TOPOLOGY_COUNT" ] || return 1
  container_ownership_inspect_remote "${CLUSTER_NODE_SSH_HOSTS[$index]}" "$ref"
}

# Discover the unique physical node holding a one-node profile. Every confirmed
# node is probed before returning, so an SSH/Docker failure is never interpreted
# as absence. A conflicting exact name or duplicate managed copy is refused.
# Exit: 0 unique index on stdout; 3 absent everywhere; 2 refused; 1 probe error.
discover_single_node_index_for_conf() {
  local conf="${1:?conf required}" cname count index meta rc role found=-1
  local reason
  cname=$(container_name_for "$conf" 1)
  load_cluster_topology || return 1
  count="$CLUSTER_TOPOLOGY_COUNT"
  [ "$count" -gt 0 ] || count=1

  for ((index = 0; index < count; index++)); do
    rc=0
    meta=$(container_ownership_inspect_on_node "$index" "$cname") || rc=$?
    case "$rc" in
      3) continue ;;
      0) ;;
      *)
        warn "cannot inspect $cname on confirmed node $index"
        return 1
        ;;
    esac
    role=$(single_node_key_for_index "$index") || return 1
    if ! container_removal_is_proven "$meta" "$conf" single "$role"; then
      reason=$(container_removal_refuse_reason "$meta" "$conf" single "$role")
      warn "refusing $cname on node $index: $reason"
      return 2
    fi
    if [ "$found" -ge 0 ]; then
      warn "refusing ambiguous placement: $cname exists on nodes $found and $index"
      return 2
    fi
    found="$index"
  done

  [ "$found" -ge 0 ] || return 3
  printf '%s\n' "$found"
}

# Remove a one-node profile at an explicitly resolved physical placement.
# The underlying helper captures the immutable ID and revalidates ownership,
# rank, and node identity immediately before removal.
remove_stack_owned_single_at_resolved_node() {
  local conf="${1:?conf required}" cname role
  cname=$(container_name_for "$conf" 1)
  role="${SINGLE_NODE_KEY:-head}"
  if [ "${SINGLE_NODE_REMOTE:-0}" = 1 ]; then
    remove_stack_owned_container_remote "$SINGLE_NODE_SSH_HOST" \
      "$cname" "$conf" single "$role"
  else
    remove_stack_owned_container_local "$cname" "$conf" single "$role"
  fi
}

# Best-effort remove by immutable ID only (current-launch cleanup). Never by name.
# Only accepts a validated 64-hex id — never arbitrary docker run stdout.
remove_container_id_local() {
  local id="${1:-}" normalized
  [ -n "$id" ] || return 0
  if ! normalized=$(parse_docker_run_container_id "$id"); then
    warn "refusing id cleanup: invalid container id"
    return 0
  fi
  "$PULSAR_DOCKER" rm -f "$normalized" >/dev/null 2>&1 || true
}

remove_container_id_remote() {
  local host="${1:-}" id="${2:-}" normalized
  [ -n "$host" ] && [ -n "$id" ] || return 0
  if ! normalized=$(parse_docker_run_container_id "$id"); then
    warn "refusing remote id cleanup: invalid container id"
    return 0
  fi
  "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" \
    "docker rm -f $(printf '%q' "$normalized") >/dev/null 2>&1 || true" 2>/dev/null || true
}

# List IDs of containers with managed=true.
# 0 success (stdout may be empty); 1 operational error — never mask as empty.
list_managed_container_ids_local() {
  if ! "$PULSAR_DOCKER" info >/dev/null 2>&1; then
    return 1
  fi
  "$PULSAR_DOCKER" ps -aq --filter "label=${PULSAR_MANAGED_LABEL}=true" 2>/dev/null || return 1
  return 0
}

list_managed_container_ids_remote() {
  local host="${1:?}" out status
  local remote_cmd filter_q
  filter_q=$(printf '%q' "label=${PULSAR_MANAGED_LABEL}=true")
  # Protocol status line (never print OK before a successful docker ps):
  #   OK\n[ids...] | DOCKER_INFO_ERROR | DOCKER_PS_ERROR
  # Both error statuses ⇒ operational failure (not empty success).
  remote_cmd="if ! docker info >/dev/null 2>&1; then printf '%s\\n' DOCKER_INFO_ERROR; exit 0; fi; "
  remote_cmd+="if ! ids=\$(docker ps -aq --filter ${filter_q}); then printf '%s\\n' DOCKER_PS_ERROR; exit 0; fi; "
  remote_cmd+="printf '%s\\n' OK; "
  remote_cmd+="if [ -n \"\$ids\" ]; then printf '%s\\n' \"\$ids\"; fi"

  if ! out=$("$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" "$remote_cmd" 2>/dev/null); then
    return 1
  fi
  status=$(printf '%s\n' "$out" | head -n1 | tr -d '\r')
  case "$status" in
    OK)
      printf '%s\n' "$out" | tail -n +2
      return 0
      ;;
    DOCKER_INFO_ERROR|DOCKER_PS_ERROR)
      return 1
      ;;
    *)
      return 1
      ;;
  esac
}

# Remove local --all candidates that are safe for head placement.
# Exit 0 all ok; 1 operational error; 2 any refused candidate left intact.
# Operational error (1) is sticky: later refusals must not overwrite it.
remove_all_stack_managed_local() {
  local ids id meta conf rank reason rc=0 short probe
  ids=$(list_managed_container_ids_local) || {
    warn "local docker error listing managed containers"
    return 1
  }
  if [ -z "${ids//[$' \t\r\n']/}" ]; then
    log "no stack-managed containers on local docker"
    return 0
  fi
  for id in $ids; do
    [ -n "$id" ] || continue
    probe=0
    meta=$(container_ownership_inspect_local "$id") || probe=$?
    if [ "$probe" -eq 3 ]; then
      continue
    fi
    if [ "$probe" -ne 0 ]; then
      warn "local docker error inspecting managed id=${id:0:12}"
      rc=$(lifecycle_merge_rc "$rc" 1)
      continue
    fi
    IFS=$'\t' read -r _ _ _ conf rank < <(container_ownership_fields "$meta")
    if ! container_all_candidate_is_safe "$meta" "head"; then
      reason=$(container_all_refuse_reason "$meta" "head")
      warn "refusing managed candidate id=${id:0:12} on head: $reason"
      rc=$(lifecycle_merge_rc "$rc" 2)
      continue
    fi
    short="${id:0:12}"
    probe=0
    meta=$(container_ownership_inspect_local "$id") || probe=$?
    if [ "$probe" -eq 3 ]; then
      continue
    fi
    if [ "$probe" -ne 0 ]; then
      warn "local docker error revalidating id=$short"
      rc=$(lifecycle_merge_rc "$rc" 1)
      continue
    fi
    if ! container_all_candidate_is_safe "$meta" "head"; then
      reason=$(container_all_refuse_reason "$meta" "head")
      warn "refusing id=$short on head after revalidation: $reason"
      rc=$(lifecycle_merge_rc "$rc" 2)
      continue
    fi
    log "removing stack-managed id=$short conf=$conf rank=$rank (head)"
    if ! "$PULSAR_DOCKER" rm -f "$id" >/dev/null; then
      warn "docker rm -f failed for id=$short"
      rc=$(lifecycle_merge_rc "$rc" 1)
      continue
    fi
    if ! container_id_absent_local "$id"; then
      warn "container id=$short still present or unverifiable after docker rm -f"
      rc=$(lifecycle_merge_rc "$rc" 1)
    fi
  done
  return "$rc"
}

remove_all_stack_managed_remote() {
  local host="${1:?}" placement="${2:-worker}"
  local ids id meta conf rank reason rc=0 short remote_rm probe
  ids=$(list_managed_container_ids_remote "$host") || {
    warn "remote host unreachable or Docker error listing managed containers on $host"
    return 1
  }
  if [ -z "${ids//[$' \t\r\n']/}" ]; then
    log "no stack-managed containers on $host"
    return 0
  fi
  for id in $ids; do
    [ -n "$id" ] || continue
    probe=0
    meta=$(container_ownership_inspect_remote "$host" "$id") || probe=$?
    if [ "$probe" -eq 3 ]; then
      continue
    fi
    if [ "$probe" -ne 0 ]; then
      warn "worker error inspecting managed id=${id:0:12} on $host"
      rc=$(lifecycle_merge_rc "$rc" 1)
      continue
    fi
    IFS=$'\t' read -r _ _ _ conf rank < <(container_ownership_fields "$meta")
    if ! container_all_candidate_is_safe "$meta" "$placement"; then
      reason=$(container_all_refuse_reason "$meta" "$placement")
      warn "refusing managed candidate id=${id:0:12} on node $placement: $reason"
      rc=$(lifecycle_merge_rc "$rc" 2)
      continue
    fi
    short="${id:0:12}"
    probe=0
    meta=$(container_ownership_inspect_remote "$host" "$id") || probe=$?
    if [ "$probe" -eq 3 ]; then
      continue
    fi
    if [ "$probe" -ne 0 ]; then
      warn "worker error revalidating id=$short on $host"
      rc=$(lifecycle_merge_rc "$rc" 1)
      continue
    fi
    if ! container_all_candidate_is_safe "$meta" "$placement"; then
      reason=$(container_all_refuse_reason "$meta" "$placement")
      warn "refusing id=$short on node $placement after revalidation: $reason"
      rc=$(lifecycle_merge_rc "$rc" 2)
      continue
    fi
    log "removing stack-managed on $host id=$short conf=$conf rank=$rank (node $placement)"
    remote_rm="docker rm -f $(printf '%q' "$id") >/dev/null"
    if ! "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" "$remote_rm"; then
      warn "docker rm -f failed for id=$short on $host"
      rc=$(lifecycle_merge_rc "$rc" 1)
      continue
    fi
    if ! container_id_absent_remote "$host" "$id"; then
      warn "container id=$short still present or unverifiable on $host after docker rm -f"
      rc=$(lifecycle_merge_rc "$rc" 1)
    fi
  done
  return "$rc"
}

# Two-node stale/replacement gate: prove ownership on every existing rank, then
# remove proven IDs. Worker probe errors are operational failures (never treated
# as absence). Refuse entirely (no partial remove) if any existing rank is
# unowned/mismatched. After each rm, verify the immutable ID is absent.
# Exit 0 removed/absent OK; 2 refuse; 1 error.
remove_stack_owned_cluster_pair() {
  local conf="${1:?}" cname="${2:?}" worker_ip="${3:?}"
  local head_meta worker_meta head_id="" worker_id="" reason
  local head_rc=0 worker_rc=0 refuse=0

  # Probe worker first so SSH/Docker failure never looks like "worker absent"
  # and never allows a partial head-only removal.
  worker_meta=$(container_ownership_inspect_remote "$worker_ip" "$cname") || worker_rc=$?
  if [ "$worker_rc" -eq 1 ]; then
    warn "remote host unreachable or Docker error inspecting $cname on $worker_ip — not removing any rank"
    return 1
  fi

  head_meta=$(container_ownership_inspect_local "$cname") || head_rc=$?
  if [ "$head_rc" -eq 1 ]; then
    warn "local docker error inspecting $cname — not removing any rank"
    return 1
  fi

  if [ "$head_rc" -eq 0 ]; then
    if container_ownership_is_proven "$head_meta" "$conf" "0"; then
      IFS=$'\t' read -r head_id _ < <(container_ownership_fields "$head_meta")
    else
      reason=$(container_ownership_refuse_reason "$head_meta" "$conf" "0")
      warn "head rank ownership not proven for $cname: $reason"
      refuse=1
    fi
  fi

  if [ "$worker_rc" -eq 0 ]; then
    if container_ownership_is_proven "$worker_meta" "$conf" "1"; then
      IFS=$'\t' read -r worker_id _ < <(container_ownership_fields "$worker_meta")
    else
      reason=$(container_ownership_refuse_reason "$worker_meta" "$conf" "1")
      warn "worker rank ownership not proven for $cname on $worker_ip: $reason"
      refuse=1
    fi
  fi

  if [ "$refuse" = 1 ]; then
    warn "refusing cluster replacement for conf=$conf: prove ownership on every existing rank (no partial remove)"
    return 2
  fi

  if [ "$head_rc" -eq 3 ] && [ "$worker_rc" -eq 3 ]; then
    log "no existing cluster containers named $cname"
    return 0
  fi

  # Revalidate both IDs before any mutation. Failure ⇒ refuse (no partial).
  if [ -n "$head_id" ]; then
    head_rc=0
    head_meta=$(container_ownership_inspect_local "$head_id") || head_rc=$?
    if [ "$head_rc" -eq 1 ]; then
      warn "local docker error revalidating head id for $cname"
      return 1
    fi
    if [ "$head_rc" -ne 0 ] || ! container_ownership_is_proven "$head_meta" "$conf" "0"; then
      warn "refusing: head id revalidation failed for $cname"
      return 2
    fi
  fi
  if [ -n "$worker_id" ]; then
    worker_rc=0
    worker_meta=$(container_ownership_inspect_remote "$worker_ip" "$worker_id") || worker_rc=$?
    if [ "$worker_rc" -eq 1 ]; then
      warn "worker error revalidating worker id for $cname — not removing any rank"
      return 1
    fi
    if [ "$worker_rc" -ne 0 ] || ! container_ownership_is_proven "$worker_meta" "$conf" "1"; then
      warn "refusing: worker id revalidation failed for $cname"
      return 2
    fi
  fi

  if [ -n "$worker_id" ]; then
    log "removing worker $cname id=${worker_id:0:12}"
    if ! "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$worker_ip" \
      "docker rm -f $(printf '%q' "$worker_id") >/dev/null"; then
      warn "failed to remove worker id=${worker_id:0:12}"
      return 1
    fi
    if ! container_id_absent_remote "$worker_ip" "$worker_id"; then
      warn "worker id=${worker_id:0:12} still present or unverifiable after rm — not removing head"
      return 1
    fi
  fi
  if [ -n "$head_id" ]; then
    log "removing head $cname id=${head_id:0:12}"
    if ! "$PULSAR_DOCKER" rm -f "$head_id" >/dev/null; then
      warn "failed to remove head id=${head_id:0:12}"
      return 1
    fi
    if ! container_id_absent_local "$head_id"; then
      warn "head id=${head_id:0:12} still present or unverifiable after rm"
      return 1
    fi
  fi
  return 0
}

# N-rank stale/replacement transaction. Probe and prove every existing rank,
# revalidate every immutable ID, then remove workers high-to-low and rank 0
# last. No mutation occurs after an unreachable/ambiguous initial probe.
# Exit 0 removed/absent; 1 operational error; 2 ownership/race refusal.
remove_stack_owned_cluster() {
  local conf="${1:?conf required}" cname="${2:?container required}"
  local nodes="${3:?node count required}"
  [ "$nodes" -gt 1 ] 2>/dev/null || {
    warn "remove_stack_owned_cluster requires NODES>1"
    return 2
  }
  require_cluster_nodes "$nodes" || return 1

  local -A ids=()
  local rank host meta rc reason present=0 container_id

  # Remote probes first: an unavailable rank must never permit head mutation.
  for ((rank = 1; rank < nodes; rank++)); do
    host="${CLUSTER_NODE_SSH_HOSTS[$rank]}"
    rc=0
    meta=$(container_ownership_inspect_remote "$host" "$cname") || rc=$?
    if [ "$rc" -eq 1 ]; then
      warn "rank $rank unreachable or Docker error on $host — not removing any rank"
      return 1
    fi
    if [ "$rc" -eq 0 ]; then
      if ! container_ownership_is_proven "$meta" "$conf" "$rank"; then
        reason=$(container_ownership_refuse_reason "$meta" "$conf" "$rank")
        warn "rank $rank ownership not proven for $cname on $host: $reason"
        return 2
      fi
      IFS=$'\t' read -r container_id _ < <(container_ownership_fields "$meta")
      ids["$rank"]="$container_id"
      present=$((present + 1))
    fi
  done

  rc=0
  meta=$(container_ownership_inspect_local "$cname") || rc=$?
  if [ "$rc" -eq 1 ]; then
    warn "local Docker error inspecting $cname — not removing any rank"
    return 1
  fi
  if [ "$rc" -eq 0 ]; then
    if ! container_ownership_is_proven "$meta" "$conf" 0; then
      reason=$(container_ownership_refuse_reason "$meta" "$conf" 0)
      warn "rank 0 ownership not proven for $cname: $reason"
      return 2
    fi
    IFS=$'\t' read -r container_id _ < <(container_ownership_fields "$meta")
    ids[0]="$container_id"
    present=$((present + 1))
  fi

  if [ "$present" -eq 0 ]; then
    log "no existing cluster containers named $cname across $nodes ranks"
    return 0
  fi

  # Revalidate every ID before the first rm. Any disappearance/replacement is a
  # race and therefore an ownership refusal, not permission to continue.
  for ((rank = 1; rank < nodes; rank++)); do
    [ -n "${ids[$rank]:-}" ] || continue
    host="${CLUSTER_NODE_SSH_HOSTS[$rank]}"
    rc=0
    meta=$(container_ownership_inspect_remote "$host" "${ids[$rank]}") || rc=$?
    if [ "$rc" -eq 1 ]; then
      warn "rank $rank error revalidating $cname on $host"
      return 1
    fi
    if [ "$rc" -ne 0 ] \
        || ! container_ownership_is_proven "$meta" "$conf" "$rank"; then
      warn "rank $rank ownership changed while revalidating $cname"
      return 2
    fi
  done
  if [ -n "${ids[0]:-}" ]; then
    rc=0
    meta=$(container_ownership_inspect_local "${ids[0]}") || rc=$?
    if [ "$rc" -eq 1 ]; then
      warn "local Docker error revalidating rank 0 for $cname"
      return 1
    fi
    if [ "$rc" -ne 0 ] || ! container_ownership_is_proven "$meta" "$conf" 0; then
      warn "rank 0 ownership changed while revalidating $cname"
      return 2
    fi
  fi

  for ((rank = nodes - 1; rank >= 1; rank--)); do
    [ -n "${ids[$rank]:-}" ] || continue
    host="${CLUSTER_NODE_SSH_HOSTS[$rank]}"
    log "removing rank $rank $cname id=${ids[$rank]:0:12} on $host"
    if ! "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" \
      "docker rm -f $(printf '%q' "${ids[$rank]}") >/dev/null"; then
      warn "failed to remove rank $rank id=${ids[$rank]:0:12}"
      return 1
    fi
    if ! container_id_absent_remote "$host" "${ids[$rank]}"; then
      warn "rank $rank id=${ids[$rank]:0:12} remains after rm; rank 0 left intact"
      return 1
    fi
  done

  if [ -n "${ids[0]:-}" ]; then
    log "removing rank 0 $cname id=${ids[0]:0:12}"
    if ! "$PULSAR_DOCKER" rm -f "${ids[0]}" >/dev/null; then
      warn "failed to remove rank 0 id=${ids[0]:0:12}"
      return 1
    fi
    if ! container_id_absent_local "${ids[0]}"; then
      warn "rank 0 id=${ids[0]:0:12} remains after rm"
      return 1
    fi
  fi
  return 0
}

# Append VLLM_EXTRA_ARGS onto a named bash array using shlex (handles
# spaces/quotes). Bare word-split of VLLM_EXTRA_ARGS is intentionally avoided.
# Usage: append_vllm_extra_args DEST_ARRAY_NAME
#   VLLM_EXTRA_ARGS='--foo "bar baz"' append_vllm_extra_args CMD
append_vllm_extra_args() {
  local dest="${1:?append_vllm_extra_args: array name required}"
  [ -n "${VLLM_EXTRA_ARGS:-}" ] || return 0
  local line
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    eval "$dest+=(\"\$line\")"
  done < <(VLLM_EXTRA_ARGS="$VLLM_EXTRA_ARGS" python3 - <<'PY'
import os, shlex
for a in shlex.split(os.environ.get("VLLM_EXTRA_ARGS", "")):
    print(a)
PY
)
}

# Exact container name match (Docker --filter name= is substring — unsafe for
# conf prefixes like qwen3-1.7b vs qwen3-1.7b-2node).
# Usage: echo "$names_one_per_line" | filter_exact_container_name "$want"
filter_exact_container_name() {
  local want="$1"
  local n
  while IFS= read -r n; do
    [ -z "$n" ] && continue
    if [ "$n" = "$want" ]; then
      printf '%s\n' "$n"
    fi
  done
}

# True if a running container has this exact name (local docker).
container_running_exact() {
  local want="$1"
  "$PULSAR_DOCKER" ps --format '{{.Names}}' 2>/dev/null \
    | filter_exact_container_name "$want" | grep -q .
}
container_running_exact_remote() {
  local host="${1:?}" want="${2:?}"
  "$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" \
    "docker ps --format '{{.Names}}'" 2>/dev/null \
    | filter_exact_container_name "$want" | grep -q .
}


# Validate targeted docker-inspect metadata without exposing container env.
# Labeled containers are authoritative. Unlabeled containers are accepted only
# as a transition path when their exact vLLM argv matches the selected profile.
container_metadata_matches_profile() {
  local metadata="$1" conf="$2" model="$3" served="$4" rank="${5:-}"
  printf '%s' "$metadata" | python3 -c '
import json
import sys

conf, model, served, rank, managed_key, conf_key, rank_key = sys.argv[1:]
meta = json.load(sys.stdin)
if not meta.get("running"):
    raise SystemExit(1)

labels = meta.get("labels") or {}
if str(labels.get(managed_key, "")).lower() == "true":
    ok = labels.get(conf_key) == conf
    if rank:
        ok = ok and labels.get(rank_key) == rank
    raise SystemExit(0 if ok else 1)

cmd = meta.get("cmd") or []
def value(flag):
    try:
        return cmd[cmd.index(flag) + 1]
    except (ValueError, IndexError):
        return None

ok = value("--model") == model and value("--served-model-name") == served
if rank:
    ok = ok and value("--node-rank") == rank
raise SystemExit(0 if ok else 1)
' "$conf" "$model" "$served" "$rank" \
    "$PULSAR_MANAGED_LABEL" "$PULSAR_CONF_LABEL" "$PULSAR_RANK_LABEL"
}

container_profile_owned_local() {
  local name="$1" conf="$2" model="$3" served="$4" rank="${5:-}"
  local format metadata
  format='{"running":{{json .State.Running}},"labels":{{json .Config.Labels}},"cmd":{{json .Config.Cmd}}}'
  metadata=$(docker inspect --format "$format" "$name" 2>/dev/null) || return 1
  container_metadata_matches_profile "$metadata" "$conf" "$model" "$served" "$rank"
}

container_profile_owned_remote() {
  local host="$1" name="$2" conf="$3" model="$4" served="$5" rank="${6:-}"
  local format metadata remote_cmd
  format='{"running":{{json .State.Running}},"labels":{{json .Config.Labels}},"cmd":{{json .Config.Cmd}}}'
  remote_cmd="docker inspect --format $(printf '%q' "$format") $(printf '%q' "$name")"
  metadata=$("$PULSAR_SSH" "${PULSAR_SSH_OPTS[@]}" -- "$host" "$remote_cmd" 2>/dev/null) \
    || return 1
  container_metadata_matches_profile "$metadata" "$conf" "$model" "$served" "$rank"
}

container_profile_owned_worker() {
  local name="$1" conf="$2" model="$3" served="$4" rank="${5:-}"
  require_cluster_nodes 2 || return 1
  container_profile_owned_remote "${CLUSTER_NODE_SSH_HOSTS[1]}" \
    "$name" "$conf" "$model" "$served" "$rank"
}

# True only when every active rank of the selected exact profile is owned.
profile_service_is_stack_owned() {
  local conf="$1" selector="${2:-}" cname rank host
  cname=$(container_name_for "$conf" "$NODES")
  if [ "$NODES" -gt 1 ]; then
    require_cluster_nodes "$NODES" || return 1
    container_profile_owned_local "$cname" "$conf" "$MODEL" "$SERVED_NAME" 0 \
      || return 1
    for ((rank = 1; rank < NODES; rank++)); do
      host="${CLUSTER_NODE_SSH_HOSTS[$rank]}"
      container_profile_owned_remote "$host" "$cname" "$conf" \
        "$MODEL" "$SERVED_NAME" "$rank" || return 1
    done
    return 0
  fi
  profile_service_is_proven_running "$conf" "$selector"
}

# Strict loaded-state proof for memory exemptions. Unlike the transition
# classifier above, this accepts labels only; argv resemblance is insufficient.
profile_service_is_proven_running() {
  local conf="$1" selector="${2:-}" cname head_meta remote_meta host role
  local head_rc=0 remote_rc=0 rank
  cname=$(container_name_for "$conf" "$NODES")

  if [ "$NODES" -gt 1 ]; then
    container_running_exact "$cname" || return 1
    head_meta=$(container_ownership_inspect_local "$cname") || head_rc=$?
    [ "$head_rc" -eq 0 ] || return 1
    container_ownership_is_proven "$head_meta" "$conf" 0 || return 1
    require_cluster_nodes "$NODES" || return 1
    for ((rank = 1; rank < NODES; rank++)); do
      host="${CLUSTER_NODE_SSH_HOSTS[$rank]}"
      container_running_exact_remote "$host" "$cname" || return 1
      remote_rc=0
      remote_meta=$(container_ownership_inspect_remote "$host" "$cname") \
        || remote_rc=$?
      [ "$remote_rc" -eq 0 ] || return 1
      container_ownership_is_proven "$remote_meta" "$conf" "$rank" || return 1
    done
    return 0
  fi

  resolve_single_node_placement "$selector" || return 1
  role="$SINGLE_NODE_KEY"
  if [ "$SINGLE_NODE_REMOTE" = 1 ]; then
    container_running_exact_remote "$SINGLE_NODE_SSH_HOST" "$cname" || return 1
    remote_rc=0
    remote_meta=$(container_ownership_inspect_remote "$SINGLE_NODE_SSH_HOST" "$cname") \
      || remote_rc=$?
    [ "$remote_rc" -eq 0 ] || return 1
    container_removal_is_proven "$remote_meta" "$conf" single "$role"
  else
    container_running_exact "$cname" || return 1
    head_meta=$(container_ownership_inspect_local "$cname") || head_rc=$?
    [ "$head_rc" -eq 0 ] || return 1
    container_removal_is_proven "$head_meta" "$conf" single "$role"
  fi
}

container_exists_exact() {
  local want="$1"
  docker ps -a --format '{{.Names}}' 2>/dev/null | filter_exact_container_name "$want" | grep -q .
}
