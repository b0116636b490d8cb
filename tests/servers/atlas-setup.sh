# atlas-mind's own set-up of a mind in the sandbox (run by the probe's --setup, with
# ATLAS_BIN, the folder of its virtual environment's programs, from --env): a mind, a token
# whose hash is that of `probetoken` (so that the probe's URL is known before it starts), a
# git identity for its commits, and a first commit.
set -e
"$ATLAS_BIN/atlas" init --yes mind > /dev/null
"$ATLAS_BIN/atlas" token create mind > /dev/null
"$ATLAS_BIN/python" -c '
import hashlib, json
path = "mind/.atlas/users.json"
users = json.load(open(path))
users[0]["api_token_hash"] = hashlib.sha256(b"probetoken").hexdigest()
json.dump(users, open(path, "w"), indent=1)'
git -C mind config user.name probe
git -C mind config user.email probe@example.com
git -C mind add -A
git -C mind commit -qm seed
