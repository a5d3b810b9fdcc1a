#!/usr/bin/env bash
# Installs code-server (VS Code's workbench served to a browser) from the npm registry alone, for the
# extension-host and workbench end-to-end tests. No GitHub or CDN access is needed: the one git dependency is
# swapped for its identical registry tarball, native modules are built here, ripgrep is Debian's.
#
# usage: scripts/setup-code-server.sh [version] [dir]      (defaults: 4.100.3, /tmp/code-server)
# needs: node 20, npm, g++, make, python3, libkrb5-dev, ripgrep (/usr/bin/rg)
# then:  TOOLSCOPE_CODE_SERVER=<dir>/node_modules/.bin/code-server npm test
#
# 4.100.3 is the newest code-server that runs on Node 20 (4.103+ need Node 22); it ships VS Code 1.100.3, which
# is why engines.vscode stays at ^1.100.0.
set -euo pipefail
V=${1:-4.100.3}
D=${2:-/tmp/code-server}
export npm_config_yes=true          # node-pty's postinstall runs `npx node-gyp`
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
t0=$(date +%s)
mkdir -p "$D"
D=$(cd "$D" && pwd)
LOG="$D/setup.log"
: >"$LOG"
step() { # step "what" command...: runs quietly, prints the log's tail when it fails
  local what=$1; shift
  local s; s=$(date +%s)
  if ! "$@" >>"$LOG" 2>&1; then
    echo "setup-code-server: $what failed; last lines of $LOG:" >&2
    tail -n 40 "$LOG" >&2
    exit 1
  fi
  echo "  $what: $(( $(date +%s) - s ))s"
}
for tool in g++ make python3 rg; do
  command -v "$tool" >/dev/null || { echo "setup-code-server: $tool is missing (apt-get install g++ make python3 ripgrep libkrb5-dev)" >&2; exit 1; }
done

cd "$D"
[ -f package.json ] || echo '{"name":"code-server-host","private":true}' >package.json
# 1) the package and its root dependencies, without the postinstall (it would fetch from GitHub)
step "npm install code-server@$V" npm install --ignore-scripts "code-server@$V"
step "rebuild argon2" npm rebuild argon2   # its prebuilt download fails here: built from source
CS="$D/node_modules/code-server"
VS="$CS/lib/vscode"
cd "$VS"
# 2) the only git dependency (@vscode/proxy-agent) -> the identical registry tarball (same integrity hash)
PA=$(node -p "require('./npm-shrinkwrap.json').packages['node_modules/@vscode/proxy-agent'].version")
TARBALL=$(npm view "@vscode/proxy-agent@$PA" dist.tarball)
sed -i -E "s#git\\+ssh://git@github.com/microsoft/vscode-proxy-agent.git\\#[0-9a-f]+#$TARBALL#" npm-shrinkwrap.json
step "npm install (VS Code's server dependencies)" npm install --unsafe-perm --omit=dev --ignore-scripts
# 3) native modules, built here (node headers via nodedir)
step "rebuild native modules" npm rebuild --unsafe-perm @parcel/watcher @vscode/deviceid @vscode/spdlog kerberos native-watchdog node-pty
# 4) ripgrep: the postinstall would download it from GitHub; Debian's is the same program
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
# 5) the rest of code-server's postinstall.sh
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
cd extensions
step "npm install (built-in extensions)" npm install --unsafe-perm --omit=dev
version=$("$D/node_modules/.bin/code-server" --config "$D/config.yaml" --version | tail -1)
echo "code-server $version ready in $(( $(date +%s) - t0 ))s, $(du -sh "$D/node_modules" | cut -f1) in $D"
