#!/usr/bin/env bash
# Builds the Debian package from a staged tree: packaging/deb.sh STAGE VERSION OUTPUT.
# STAGE/debian/workout holds what `make install-built PREFIX=/usr` put there (the layout
# dpkg-shlibdeps expects, beside a debian/control of its own); this adds the documents
# Debian asks for (README with the docs it links, copyright, changelog), writes DEBIAN/control with Depends
# computed by dpkg-shlibdeps from the binary's libraries, and packs it with dpkg-deb.
# Nothing here reaches the network.
set -euo pipefail
stage="$1" version="$2" output="$3"
root="$stage/debian/workout"
here="$(cd "$(dirname "$0")" && pwd)"
maintainer="$(sed -n 's/^Maintainer: //p' "$here/control")"

doc="$root/usr/share/doc/workout"
install -d "$doc"
install -m 644 "$here/../README.md" "$doc/README.md"
# The guides the README links, where its links lead.
install -d "$doc/docs"
install -m 644 "$here"/../docs/*.md "$here"/../docs/*.png "$doc/docs/"
install -m 644 "$here/copyright" "$doc/copyright"
# A native package's changelog: one entry for this version, dated by the last commit so
# that the same commit gives the same package.
date="$(git -C "$here" log -1 --format=%aD 2>/dev/null || date -R)"
printf 'workout (%s) unstable; urgency=medium\n\n  * Release %s; what changed is in the repository'"'"'s history.\n\n -- %s  %s\n' \
  "$version" "$version" "$maintainer" "$date" | gzip -9n > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

# dpkg-shlibdeps reads the package's names from debian/control, and finds the package's
# root by its DEBIAN folder.
install -d -m 755 "$root/DEBIAN"
printf 'Source: workout\n\nPackage: workout\nArchitecture: any\n' > "$stage/debian/control"
depends="$(cd "$stage" && dpkg-shlibdeps -O debian/workout/usr/bin/workout debian/workout/usr/bin/workout-serve \
  | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "deb.sh: dpkg-shlibdeps found no libraries in the binary" >&2; exit 1; }

{
  echo "Package: workout"
  echo "Version: $version"
  echo "Architecture: $(dpkg --print-architecture)"
  echo "Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)"
  echo "Depends: $depends"
  grep -v '^#' "$here/control"
} > "$root/DEBIAN/control"
chmod 644 "$root/DEBIAN/control"

mkdir -p "$(dirname "$output")"
dpkg-deb --build --root-owner-group "$root" "$output"
