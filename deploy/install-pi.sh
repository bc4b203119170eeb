#!/bin/sh
# Install damas rig on a Raspberry Pi as the rig-board service (docs/pi-service.md):
#
#     sudo deploy/install-pi.sh              # from a checkout of the project, on the Pi
#
# - the package and the Pi pin backend in a virtualenv, /opt/damas-rig (python3 -m venv; pip install '.[pi]')
# - the service user `rig` (groups dialout, gpio), the games in /var/lib/rig/games
# - /etc/rig/rig-board.env (settings), /etc/rig/web.toml (a fresh arbiter token), /etc/rig/tags.txt
#   (never overwritten when they exist)
# - the systemd unit rig-board.service (enabled and started) and the udev rule for /dev/rig-clock
#
# Options: --no-start (install and enable, do not start now); DESTDIR=/some/dir lays the files out under
# that directory only (no user, venv, systemctl or udevadm: for packaging and for the tests).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dest=${DESTDIR:-}
start=yes
for arg in "$@"; do
    case "$arg" in
        --no-start) start=no ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "install-pi.sh: unknown option $arg (--no-start, --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$dest" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install-pi.sh: run it as root (sudo $0)" >&2
    exit 2
fi

say() { echo "install-pi.sh: $*"; }
put() {  # put SRC DEST MODE: install a file, creating its directory
    mkdir -p "$(dirname "$dest$2")"
    cp "$1" "$dest$2"
    chmod "$3" "$dest$2"
    say "installed $2"
}
keep() {  # keep SRC DEST MODE: install only when missing (the organiser's settings survive an update)
    if [ -e "$dest$2" ]; then say "kept $2"; else put "$1" "$2" "$3"; fi
}

if [ -z "$dest" ]; then
    id rig >/dev/null 2>&1 || useradd --system --home-dir /var/lib/rig --shell /usr/sbin/nologin rig
    for g in dialout gpio; do getent group "$g" >/dev/null && usermod -a -G "$g" rig; done
    python3 -m venv /opt/damas-rig
    /opt/damas-rig/bin/pip install -q --disable-pip-version-check "$root[pi]"
    say "installed the package in /opt/damas-rig"
fi

put "$here/rig-board" /opt/damas-rig/bin/rig-board 0755
put "$here/rig-board.service" /etc/systemd/system/rig-board.service 0644
put "$here/99-rig-clock.rules" /etc/udev/rules.d/99-rig-clock.rules 0644
keep "$here/rig-board.env" /etc/rig/rig-board.env 0644
mkdir -p "$dest/var/lib/rig/games"
if [ ! -e "$dest/etc/rig/tags.txt" ]; then
    printf 'Event=?\nRound=?\nWhite=?\nBlack=?\n' > "$dest/etc/rig/tags.txt"
    say "installed /etc/rig/tags.txt"
fi
if [ ! -e "$dest/etc/rig/web.toml" ]; then
    token=$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')
    printf '[web]\n# the arbiter opens http://THIS-PI:8080/arbiter and enters this token\narbiter_token = "%s"\n' \
        "$token" > "$dest/etc/rig/web.toml"
    chmod 0640 "$dest/etc/rig/web.toml"
    say "installed /etc/rig/web.toml with a new arbiter token"
else
    say "kept /etc/rig/web.toml"
fi

if [ -z "$dest" ]; then
    chown -R rig:rig /var/lib/rig
    chgrp rig /etc/rig/web.toml
    udevadm control --reload-rules && udevadm trigger --subsystem-match=tty
    systemctl daemon-reload
    systemctl enable rig-board.service
    if [ "$start" = yes ]; then
        systemctl restart rig-board.service
        say "rig-board started: journalctl -u rig-board -f; pages on http://$(hostname):8080/"
    fi
    [ -e /etc/rig/rig-matrix.toml ] || say "no /etc/rig/rig-matrix.toml yet: rig calibrate matrix -o /etc/rig/rig-matrix.toml (the standard wiring is used until then)"
fi
