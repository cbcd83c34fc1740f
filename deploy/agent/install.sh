#!/bin/sh
# Installs the Guard device agent on a systemd host, in one command:
#
#   curl -fsSL https://guard.example/agent/install.sh | sudo sh -s -- --key guard_… --name web-1
#
# Downloads the agent (one file, GET /agent/download), refuses it unless its SHA-256 is the one
# the collector published, checks Node (20 or newer), enrols the machine (unless it already has a
# config), writes the agent's hardened unit (`guard-agent.mjs install`, the one source of that
# text) and enables it. Run again to upgrade: the config and the device are kept.
#
# Options: --key API_KEY --name NAME [--tag T]... [--interval SECONDS]   enrolment (guard agent enroll)
#          --collector URL   another address than the one that served this script
#          --root DIR        install under DIR, run nothing as root (systemctl, useradd): to try it out
set -eu

# Filled in by the collector that serves this script; a copy run as it is in the repository
# asks the collector for the checksum.
COLLECTOR_URL='@@COLLECTOR_URL@@'
AGENT_SHA256='@@AGENT_SHA256@@'

say() { printf 'guard-agent: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}
placeholder() { case $1 in @@*@@) return 0 ;; *) return 1 ;; esac }

root=''
user=guard-agent
enrol=''
count=$#
# The enrolment options are kept, in order and quoted as given, at the end of "$@".
while [ "$count" -gt 0 ]; do
  arg=$1
  shift
  count=$((count - 1))
  case $arg in
    --root | --collector | --key | --name | --tag | --interval)
      [ "$count" -gt 0 ] || die "$arg needs a value"
      value=$1
      shift
      count=$((count - 1))
      case $arg in
        --root) root=$value ;;
        --collector) COLLECTOR_URL=$value ;;
        *)
          [ "$arg" = --key ] && enrol=yes
          set -- "$@" "$arg" "$value"
          ;;
      esac
      ;;
    -h | --help)
      say 'sh install.sh --key API_KEY --name NAME [--tag T]... [--interval SECONDS] [--collector URL] [--root DIR]'
      exit 0
      ;;
    *) die "unknown option $arg (--key, --name, --tag, --interval, --collector, --root)" ;;
  esac
done

placeholder "$COLLECTOR_URL" && die '--collector URL is needed (the address of your Guard collector)'
COLLECTOR_URL=${COLLECTOR_URL%/}
[ -n "$root" ] || [ "$(id -u)" = 0 ] || die 'run as root (… | sudo sh -s -- …), or with --root DIR to try it out'

command -v node >/dev/null 2>&1 || die 'Node.js 20 or newer is needed: your distribution'"'"'s nodejs package, or nodejs.org'
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  die "Node.js 20 or newer is needed; $(command -v node) is $(node --version)"

download() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --proto '=http,https' -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    die 'curl or wget is needed'
  fi
}
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    node -e 'process.stdout.write(require("node:crypto").createHash("sha256").update(require("node:fs").readFileSync(process.argv[1])).digest("hex"))' "$1"
  fi
}

lib=$root/usr/local/lib/guard-agent
agent=$lib/guard-agent.mjs
config=$root/etc/guard/agent.json
unit=$root/etc/systemd/system/guard-agent.service
mkdir -p "$lib" "${config%/*}" "${unit%/*}"

# Beside the installed agent, so a refused or interrupted download never replaces it.
partial=$agent.download
trap 'rm -f "$partial"' EXIT
download "$COLLECTOR_URL/agent/download" "$partial"
if placeholder "$AGENT_SHA256"; then
  download "$COLLECTOR_URL/agent/download.sha256" "$partial.sha256"
  AGENT_SHA256=$(cut -d' ' -f1 "$partial.sha256")
  rm -f "$partial.sha256"
fi
actual=$(sha256 "$partial")
[ "$actual" = "$AGENT_SHA256" ] ||
  die "checksum mismatch: $COLLECTOR_URL/agent/download has SHA-256 $actual, expected $AGENT_SHA256; nothing installed"
chmod 0644 "$partial"
mv -f "$partial" "$agent"
say "agent $agent (sha256 $actual)"

if [ -f "$config" ]; then
  say "already enrolled ($config), keeping it"
else
  [ -n "$enrol" ] || die "$config does not exist: --key API_KEY and --name NAME are needed to enrol"
  node "$agent" enroll --collector "$COLLECTOR_URL" --config "$config" "$@" >&2
fi

if [ -n "$root" ]; then
  node "$agent" install --user "$user" --config "$config" --unit "$unit" >&2
  say "installed under $root; not run there: useradd $user, chown, systemctl enable --now guard-agent"
  exit 0
fi
command -v systemctl >/dev/null 2>&1 ||
  die "no systemd here: the agent is in $agent; run it under your own supervisor as: node $agent --config $config"
node "$agent" install --user "$user" --config "$config" --unit "$unit" >/dev/null
id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
chown "$user:$user" "$config"
chmod 0600 "$config"
systemctl daemon-reload
systemctl enable guard-agent >/dev/null 2>&1
# restart, not start: a running agent picks up the file just downloaded.
systemctl restart guard-agent
say "running: systemctl status guard-agent; logs: journalctl -u guard-agent -f"
