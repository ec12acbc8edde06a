#!/bin/sh
# /usr/bin/apollia-desktop, installed by the deb (electron-builder.yml `deb`): starts the app binary
# with the arguments it was given. Where there is no display (an SSH session, a server, a systemd
# user unit under linger) it puts Chromium's Ozone platform on `headless` first: Electron picks its
# Ozone platform before the main script runs, so only argv can (README "The command line of the
# installed app"). The switches are electron/main/headless.ts HEADLESS_SWITCHES; a start that
# already names an Ozone platform is left as typed.
APP='/opt/Apollia Desktop/apollia-desktop'
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  named=''
  for arg in "$@"; do
    case $arg in --ozone-platform=*) named=1 ;; esac
  done
  if [ -z "$named" ]; then
    exec "$APP" --ozone-platform=headless --disable-gpu "$@"
  fi
fi
exec "$APP" "$@"
