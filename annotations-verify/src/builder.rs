//! The verification as it is built: the listing, the state each case starts from, what is
//! observed, the places classed apart, the number of cases and the seed.

use mcp_annotations::Listing;

use crate::observe::Observe;

/// A verification of a listing's hints by behaviour; see the [crate](crate).
pub struct Verify<'a, S: 'static> {
    pub(crate) listing: &'a Listing<S>,
    pub(crate) make: Box<dyn Fn() -> S + 'a>,
    pub(crate) observe: Option<Observe<'a, S>>,
    /// The JSON pointers (with `*` for any key or index) of arrays that are sets.
    pub(crate) unordered: Vec<String>,
    pub(crate) cases: u32,
    pub(crate) seed: Option<u64>,
    /// The places classed volatile or append-only, for an observation of files.
    #[cfg(feature = "files")]
    pub(crate) classes: crate::judge::classes::Classes,
    /// The places that could not be read, each with why.
    #[cfg(feature = "files")]
    pub(crate) bad_places: Vec<String>,
}

impl<'a, S: 'static> Verify<'a, S> {
    /// A verification of `listing`'s tools, each case on a fresh state from `make`.
    pub fn new(listing: &'a Listing<S>, make: impl Fn() -> S + 'a) -> Self {
        Verify {
            listing,
            make: Box::new(make),
            observe: None,
            unordered: Vec::new(),
            cases: 64,
            seed: None,
            #[cfg(feature = "files")]
            classes: crate::judge::classes::Classes::default(),
            #[cfg(feature = "files")]
            bad_places: Vec::new(),
        }
    }

    /// What the environment is: the observation the hints are judged on, made from the state
    /// before and after each call (any `Serialize` value, compared as JSON). A `HashSet` or
    /// `BTreeSet` in it, wherever it sits, is compared as a set (its order is its hasher's:
    /// an insert that changes nothing may reshuffle it); see [`unordered`](Self::unordered)
    /// for arrays whose type does not say so. Without an observation, only the arguments and
    /// results are checked, and the report says so.
    #[must_use]
    pub fn observe<T: serde::Serialize>(mut self, observe: impl Fn(&S) -> T + 'a) -> Self {
        self.observe = Some(Observe::Json(Box::new(move |state| {
            let observed = observe(state);
            let sets = crate::observe::sets::pointers(&observed);
            let mut value = serde_json::to_value(&observed).map_err(|error| error.to_string())?;
            crate::observe::as_sets(&mut value, &sets);
            Ok(value)
        })));
        self
    }

    /// Observes the folder (or the one file) at the path `path` gives for a state, by what
    /// its files hold, and judges each call by the rules `annotations-audit probe` judges a
    /// server's sandbox by (see [`judge`](crate::judge)): a SQLite database by its tables and rows, an office
    /// document part by part, JSON by [`contains`](crate::compare::contains), JSON Lines record by record, a git
    /// repository by its refs and what its index stages, other text by its lines, other bytes
    /// only grown at their end. A read-only tool changes nothing there, a non-destructive one
    /// loses nothing, an idempotent one called twice changes nothing the second time.
    /// Replaces [`observe`](Self::observe) (feature `files`); [`unordered`](Self::unordered)
    /// does not apply to it. A path that no observation finds is a problem in the report (a
    /// path mistyped would otherwise pass every claim). A symbolic link is observed as a link,
    /// not followed.
    ///
    /// ```
    /// use std::path::PathBuf;
    ///
    /// use mcp_annotations::{tool, tools, Listing};
    /// use mcp_annotations_verify::Verify;
    ///
    /// /// A store of lines, in a folder of its own.
    /// pub struct Journal(PathBuf);
    ///
    /// impl Journal {
    ///     /// Add a line, keeping every other.
    ///     #[tool(destructive = false, open_world = false)]
    ///     fn add(&self, #[schema(max_length = 20)] line: String) -> Result<(), String> {
    ///         use std::io::Write;
    ///         let mut file = std::fs::OpenOptions::new()
    ///             .create(true)
    ///             .append(true)
    ///             .open(self.0.join("journal.txt"))
    ///             .map_err(|error| error.to_string())?;
    ///         writeln!(file, "{}", line.replace('\n', " ")).map_err(|error| error.to_string())
    ///     }
    /// }
    ///
    /// static TOOLS: Listing<Journal> = tools![Journal::add];
    ///
    /// let cases = std::sync::atomic::AtomicU32::new(0);
    /// Verify::new(&TOOLS, || {
    ///     let n = cases.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    ///     let dir = std::env::temp_dir().join(format!("journal-{}-{n}", std::process::id()));
    ///     let _ = std::fs::remove_dir_all(&dir);
    ///     std::fs::create_dir_all(&dir).unwrap();
    ///     Journal(dir)
    /// })
    /// .observe_files(|journal| journal.0.clone())
    /// .cases(8)
    /// .run()
    /// .assert_ok();
    /// # for n in 0..cases.into_inner() {
    /// #     let _ = std::fs::remove_dir_all(std::env::temp_dir().join(format!("journal-{}-{n}", std::process::id())));
    /// # }
    /// ```
    #[cfg(feature = "files")]
    #[must_use]
    pub fn observe_files(mut self, path: impl Fn(&S) -> std::path::PathBuf + 'a) -> Self {
        self.observe = Some(Observe::Files(Box::new(path)));
        self
    }

    /// Classes a place of an [observation of files](Self::observe_files) *volatile*: what
    /// changes there (a timestamp column, a cache) is never judged. A place is a path under
    /// the observed folder (`*` matching within a segment, `**` any number of them; where one
    /// file is observed, its name), or `PATH#POINTER`, a JSON pointer into what the file holds
    /// whose segments may be `*`: `state.db#/tables/items/rows/*/last_seen`. A place written
    /// wrong (an absolute path, a pointer without its `/`) is a problem in the report; one
    /// that matches nothing classes nothing. Places class an observation of files only, not
    /// one made with [`observe`](Self::observe).
    #[cfg(feature = "files")]
    #[must_use]
    pub fn volatile(mut self, place: &str) -> Self {
        match crate::judge::classes::Place::parse(place) {
            Ok(place) => self.classes.volatile.push(place),
            Err(why) => self.bad_places.push(why),
        }
        self
    }

    /// Classes a place of an [observation of files](Self::observe_files) *append-only*: it may
    /// grow (a log, an audit table) under a tool that is idempotent or non-destructive, never
    /// under a read-only one. Places are written as for [`volatile`](Self::volatile).
    #[cfg(feature = "files")]
    #[must_use]
    pub fn append_only(mut self, place: &str) -> Self {
        match crate::judge::classes::Place::parse(place) {
            Ok(place) => self.classes.append_only.push(place),
            Err(why) => self.bad_places.push(why),
        }
        self
    }

    /// Compares the arrays of the observation at `pointer` as sets (as multisets: order aside,
    /// repeats counted), for arrays whose type does not say they are one: a `Vec` collected
    /// from a `HashSet` or a `HashMap`'s values, in an order that may differ between two
    /// observations of the same state. (A `HashSet` or `BTreeSet` itself is found by its type
    /// and needs no pointer, unless a type of your own hands serde the set itself: a
    /// `#[serde(transparent)]` newtype, an untagged enum's newtype variant.) `pointer` is a
    /// JSON pointer into the observation, `*` standing for any key or index (`"/tags"`,
    /// `"/users/*/roles"`; `""` for the observation itself).
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use std::sync::Mutex;
    ///
    /// use mcp_annotations::{tool, tools, Listing};
    /// use mcp_annotations_verify::Verify;
    ///
    /// #[derive(Default)]
    /// struct Tags(Mutex<HashSet<String>>);
    ///
    /// impl Tags {
    ///     /// Tag the item: a tag given twice is there once.
    ///     #[tool(destructive = false, idempotent, open_world = false)]
    ///     fn tag(&self, tag: String) {
    ///         self.0.lock().unwrap().insert(tag);
    ///     }
    /// }
    ///
    /// static TOOLS: Listing<Tags> = tools![Tags::tag];
    ///
    /// // Each observation a list collected anew from a set, its order its own.
    /// Verify::new(&TOOLS, Tags::default)
    ///     .observe(|tags| tags.0.lock().unwrap().iter().cloned().collect::<Vec<_>>())
    ///     .unordered("")
    ///     .cases(16)
    ///     .run()
    ///     .assert_ok();
    /// ```
    #[must_use]
    pub fn unordered(mut self, pointer: &str) -> Self {
        self.unordered.push(pointer.to_owned());
        self
    }

    /// How many cases each tool gets (64 unless set).
    #[must_use]
    pub fn cases(mut self, cases: u32) -> Self {
        self.cases = cases;
        self
    }

    /// The seed: the same seed, listing and state give the same run. Unless set, the run's
    /// seed is taken from the clock, and the report prints it.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }
}
