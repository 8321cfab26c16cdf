#!/usr/bin/env bash
# Serves the practice app "the-internet" (saucelabs/the-internet, a Sinatra app of many small
# pages) on 127.0.0.1 for the natural suite tests/fixtures/natural/the-internet.
#
#   scripts/the-internet.sh [PORT]        (default 9292; prints the base URL, runs in the foreground)
#
# The app's code is never part of this repository: it is checked out from a snapshot of its
# repository (THE_INTERNET_REPO: a bare git directory or a work tree; default
# /work/.mirror/saucelabs+the-internet/repo) into THE_INTERNET_DIR (default
# /work/apps/the-internet).
#
# Ruby and the gems come from Debian packages (apt-get install ruby ruby-sinatra
# ruby-sinatra-contrib ruby-rack ruby-faker ruby-webrick). Four of the app's gems are not packaged
# by Debian, so this script writes a small shim for each into $THE_INTERNET_DIR-shim:
#   bundler/setup   a no-op, because the gems are Debian's, not a bundle;
#   sinatra/flash   a flash hash kept in the session (a value set in one request is read in the
#                   next), which is what the login, secure area and notification pages use;
#   zurb-foundation, compass
#                   empty, because they only compile SCSS and the app serves its compiled CSS.
# The pages that need pony (mail) or uuid (large DOM ids) are not used by the suite.
set -euo pipefail

PORT="${1:-9292}"
REPO="${THE_INTERNET_REPO:-/work/.mirror/saucelabs+the-internet/repo}"
APP="${THE_INTERNET_DIR:-/work/apps/the-internet}"
SHIM="$APP-shim"

die() { echo "the-internet.sh: $*" >&2; exit 1; }

command -v ruby >/dev/null ||
    die "ruby is not installed: apt-get install ruby ruby-sinatra ruby-sinatra-contrib ruby-rack ruby-faker ruby-webrick"
for lib in sinatra/base sinatra/contrib rack faker webrick; do
    ruby -e "require '$lib'" 2>/dev/null ||
        die "the Ruby library '$lib' is missing: apt-get install ruby-sinatra ruby-sinatra-contrib ruby-rack ruby-faker ruby-webrick"
done

if [ ! -f "$APP/server.rb" ]; then
    if git --git-dir="$REPO" rev-parse --verify -q HEAD >/dev/null 2>&1; then
        GIT=(git --git-dir="$REPO")
    elif git -C "$REPO" rev-parse --verify -q HEAD >/dev/null 2>&1; then
        GIT=(git -C "$REPO")
    else
        die "no snapshot of saucelabs/the-internet at $REPO (set THE_INTERNET_REPO to a clone of it)"
    fi
    mkdir -p "$APP"
    "${GIT[@]}" archive HEAD | tar -x -C "$APP"
    echo "checked out $("${GIT[@]}" rev-parse --short HEAD) of the-internet into $APP" >&2
fi
mkdir -p "$APP/public/uploads"

mkdir -p "$SHIM/bundler" "$SHIM/sinatra"
echo '# Debian provides the gems; there is no bundle to set up.' >"$SHIM/bundler/setup.rb"
echo '# Only compiles SCSS, which the app serves compiled.' >"$SHIM/zurb-foundation.rb"
echo '# Only compiles SCSS, which the app serves compiled.' >"$SHIM/compass.rb"
cat >"$SHIM/sinatra/flash.rb" <<'RUBY'
# The part of sinatra-flash the-internet uses: flash[key] = value in one request is read as
# flash[key] in the next one, then forgotten.
require 'sinatra/base'

module Sinatra
  module Flash
    class FlashHash
      def initialize(session)
        @session = session
        @now = session.delete('flash') || {}
      end

      def [](key)
        @now[key.to_s]
      end

      def []=(key, value)
        (@session['flash'] ||= {})[key.to_s] = value
      end
    end

    module Helpers
      def flash
        @flash ||= FlashHash.new(session)
      end
    end

    def self.registered(app)
      app.helpers Helpers
    end
  end
end
RUBY

cd "$APP"
echo "the-internet on http://127.0.0.1:$PORT" >&2
exec ruby -I "$SHIM" -e '
  require "rack"
  require "webrick"
  app = Rack::Builder.parse_file("config.ru")
  app = app.first if app.is_a?(Array)
  Rack::Handler::WEBrick.run(app, Host: "127.0.0.1", Port: Integer(ARGV[0]),
                             AccessLog: [], Logger: WEBrick::Log.new($stderr, WEBrick::Log::WARN))
' "$PORT"
