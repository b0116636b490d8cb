# backlog.md's own set-up of a board in the sandbox (run by the probe's --setup, with BACKLOG,
# its program, from --env): a git repository, `backlog init`, no remote operations, a commit
# per change, three tasks, a document and a milestone, committed.
set -e
git init -q
git config user.name probe
git config user.email probe@example.com
"$BACKLOG" init probe --defaults --integration-mode mcp < /dev/null > /dev/null 2>&1
"$BACKLOG" config set remoteOperations false > /dev/null
"$BACKLOG" config set autoCommit true > /dev/null
"$BACKLOG" task create "Write the README" -d "Explain install and usage" --ac "README covers install" > /dev/null
"$BACKLOG" task create "Fix login bug" -d "Users cannot log in with uppercase emails" -s "In Progress" -l bug > /dev/null
"$BACKLOG" task create "Release 1.0" --dep task-1 > /dev/null
"$BACKLOG" doc create "Architecture notes" > /dev/null
"$BACKLOG" milestone add "Beta" > /dev/null
git add -A
git commit -qm seed
