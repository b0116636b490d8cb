//! The hints: [`ToolAnnotations`] as an author states them, their [`wire`] form, the
//! consistency [`check`], [`presets`] and HTTP mappings. A host's trust-aware reading of them
//! is the `host` floor's.
//!
//! Each hint is read, set and taken at its effective value by [`Hint`] (the rules crate's one
//! list, whose rules say how the hints bear on each other): this file holds each hint's field,
//! builder and accessor, and everything else walks [`Hint::ALL`].

pub(crate) mod check;
pub(crate) mod presets;
pub(crate) mod wire;

use std::borrow::Cow;

pub use self::check::ConflictError;

/// What calling an MCP tool does to the world, as the tool's author states it.
///
/// The Model Context Protocol lets a server attach these annotations to each tool it lists:
/// a display `title` and four hints. On the wire they are spelled `title`, `readOnlyHint`,
/// `destructiveHint`, `idempotentHint` and `openWorldHint`; serde reads and writes exactly
/// that spelling (see [the wire format](#the-wire-format)).
///
/// Each hint is an `Option<bool>`: `None` means the author said nothing, which is not the same
/// as `false`. The accessors ([`read_only`](Self::read_only), [`destructive`](Self::destructive),
/// [`idempotent`](Self::idempotent), [`open_world`](Self::open_world)) apply the protocol's
/// pessimistic defaults and the implications of a read-only tool, so code that acts on
/// annotations should call them rather than read the fields.
///
/// Hints are claims, not guarantees. A host must not act on the hints of a server it does not
/// trust: see [`ToolAnnotations::for_host`] and [`Trust`](crate::host::Trust).
///
/// # Building annotations
///
/// Everything needed to build annotations is `const`:
///
/// ```
/// use mcp_annotations::ToolAnnotations;
///
/// const LIST_NOTES: ToolAnnotations = ToolAnnotations::new()
///     .with_title("List notes")
///     .with_read_only(true)
///     .with_open_world(false);
///
/// assert!(LIST_NOTES.read_only());
/// assert!(!LIST_NOTES.destructive()); // read-only tools destroy nothing
/// assert!(LIST_NOTES.idempotent()); // and can be repeated freely
/// assert!(!LIST_NOTES.open_world());
/// assert_eq!(LIST_NOTES.title(), Some("List notes"));
/// ```
///
/// ## Using annotations inside another `const` item
///
/// A constant built by builder calls can be used anywhere at run time, but on stable Rust it
/// cannot have methods called on it inside another `const` item: the compiler cannot see
/// through the calls that the title needs no destructor, and reports error E0493
/// ("destructor ... cannot be evaluated at compile-time"). A constant written as a struct
/// literal has no such limit, which is why the `#[tool]` attribute generates struct literals:
///
/// ```
/// use mcp_annotations::ToolAnnotations;
///
/// const LIST_NOTES: ToolAnnotations = ToolAnnotations {
///     title: None,
///     read_only_hint: Some(true),
///     destructive_hint: None,
///     idempotent_hint: None,
///     open_world_hint: Some(false),
/// };
/// // Checked while compiling: a contradiction here fails the build.
/// const _: () = assert!(LIST_NOTES.read_only() && LIST_NOTES.check().is_ok());
/// ```
///
/// # Stability
///
/// The fields are public so that annotations can be written as a `const` struct literal, as
/// above. That is a promise: the struct is not `#[non_exhaustive]`, so a fifth hint, should the
/// protocol add one, would come in a major version of this crate. Reading is not bound by it:
/// hints this version does not know are skipped on the wire.
///
/// # The wire format
///
/// Unset hints are left out, an explicit `false` is kept, and empty annotations are `{}`.
/// Reading is lenient where real peers differ and strict where a value is wrong: unknown keys
/// are ignored, `null` reads as unset, and a hint that is not a boolean is an error that names
/// the field.
///
/// ```
/// use mcp_annotations::ToolAnnotations;
/// use serde_json::json;
///
/// let read = ToolAnnotations::new().with_read_only(true).with_open_world(false);
/// assert_eq!(
///     serde_json::to_value(&read)?,
///     json!({"readOnlyHint": true, "openWorldHint": false})
/// );
///
/// let peer: ToolAnnotations =
///     serde_json::from_value(json!({"readOnlyHint": true, "title": null, "newHint": 3}))?;
/// assert_eq!(peer, ToolAnnotations::new().with_read_only(true));
///
/// let err = serde_json::from_value::<ToolAnnotations>(json!({"destructiveHint": "yes"}))
///     .unwrap_err();
/// assert!(err.to_string().contains("`destructiveHint`"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ToolAnnotations {
    /// A human-readable title for the tool, for display (`title` on the wire).
    ///
    /// A `Cow` so that constants can borrow a `&'static str` while annotations read from a
    /// peer own their string. Where a tool also has a top-level `title`, hosts show that one
    /// first, then this one, then the tool's name.
    pub title: Option<Cow<'static, str>>,
    /// Whether the tool changes nothing in its environment (`readOnlyHint`; default `false`).
    pub read_only_hint: Option<bool>,
    /// Whether a tool that changes its environment may destroy or overwrite what was there,
    /// rather than only add to it (`destructiveHint`; default `true`). Meaningful only when
    /// the tool is not read-only.
    pub destructive_hint: Option<bool>,
    /// Whether calling the tool again with the same arguments has no further effect
    /// (`idempotentHint`; default `false`). Meaningful only when the tool is not read-only.
    pub idempotent_hint: Option<bool>,
    /// Whether the tool may reach an open world of outside entities, such as the web,
    /// rather than a closed domain such as its own store (`openWorldHint`; default `true`).
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// Annotations that state nothing: every hint takes the protocol's default.
    ///
    /// The same value as [`Default::default`], usable in `const`.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    ///
    /// const NOTHING: ToolAnnotations = ToolAnnotations::new();
    /// assert!(NOTHING.is_empty());
    /// assert!(NOTHING.destructive() && NOTHING.open_world());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self {
            title: None,
            read_only_hint: None,
            destructive_hint: None,
            idempotent_hint: None,
            open_world_hint: None,
        }
    }

    /// Sets the display title to a `&'static str`, in `const`.
    ///
    /// To set a title computed at run time, use [`with_owned_title`](Self::with_owned_title)
    /// or [`set_title`](Self::set_title).
    ///
    /// Replacing an *owned* title (one read from JSON, say) with this builder leaks that
    /// string: a `const fn` cannot free it. It never panics; to replace an owned title and free
    /// it, use `with_owned_title` or `set_title`. Setting the first title, or replacing a
    /// borrowed one, frees nothing and leaks nothing, so a chain of builder calls in a `const`
    /// is always fine.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    ///
    /// const DELETE: ToolAnnotations = ToolAnnotations::new().with_title("Delete note");
    /// assert_eq!(DELETE.title(), Some("Delete note"));
    /// ```
    #[must_use]
    pub const fn with_title(mut self, title: &'static str) -> Self {
        let replaced = self.title.replace(Cow::Borrowed(title));
        // `None` or a borrowed title: forgetting frees nothing. An owned one is leaked, as
        // a `const fn` cannot run its destructor.
        core::mem::forget(replaced);
        self
    }

    /// Sets the display title to any string, owned or borrowed. Not `const`; the title it
    /// replaces, if any, is dropped as usual.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    ///
    /// let name = "notes";
    /// let list = ToolAnnotations::new().with_owned_title(format!("List {name}"));
    /// assert_eq!(list.title(), Some("List notes"));
    /// ```
    #[must_use]
    pub fn with_owned_title(mut self, title: impl Into<Cow<'static, str>>) -> Self {
        self.set_title(title);
        self
    }

    /// Replaces the display title in place (dropping the old one).
    pub fn set_title(&mut self, title: impl Into<Cow<'static, str>>) {
        self.title = Some(title.into());
    }

    /// States whether the tool changes nothing in its environment.
    #[must_use]
    pub const fn with_read_only(mut self, read_only: bool) -> Self {
        self.read_only_hint = Some(read_only);
        self
    }

    /// States whether the tool may destroy or overwrite what is there.
    #[must_use]
    pub const fn with_destructive(mut self, destructive: bool) -> Self {
        self.destructive_hint = Some(destructive);
        self
    }

    /// States whether repeating a call with the same arguments has no further effect.
    #[must_use]
    pub const fn with_idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent_hint = Some(idempotent);
        self
    }

    /// States whether the tool may reach outside entities (the web, other people's systems).
    #[must_use]
    pub const fn with_open_world(mut self, open_world: bool) -> Self {
        self.open_world_hint = Some(open_world);
        self
    }

    /// The display title, if one is stated.
    #[must_use]
    pub const fn title(&self) -> Option<&str> {
        match &self.title {
            Some(Cow::Borrowed(title)) => Some(title),
            Some(Cow::Owned(title)) => Some(title.as_str()),
            None => None,
        }
    }

    /// Whether the tool changes nothing: the hint, else `false`.
    ///
    /// The protocol's precedence: `destructiveHint` and `idempotentHint` are meaningful only
    /// when `readOnlyHint` is false, so a tool stated read-only is read-only whatever those
    /// two say. SDKs that seed every hint (mcp-go sends a read-only tool as
    /// `{"readOnlyHint": true, "destructiveHint": true, ...}`) are read as their authors meant.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    ///
    /// let seeded: ToolAnnotations = serde_json::from_str(
    ///     r#"{"readOnlyHint": true, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}"#,
    /// )?;
    /// assert!(seeded.read_only() && !seeded.destructive() && seeded.idempotent());
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub const fn read_only(&self) -> bool {
        matches!(self.read_only_hint, Some(true))
    }

    /// Whether the tool may destroy or overwrite: `false` for a read-only tool (whatever
    /// `destructiveHint` says), else the hint, else `true`.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    ///
    /// assert!(ToolAnnotations::new().destructive());
    /// assert!(!ToolAnnotations::new().with_destructive(false).destructive());
    /// assert!(!ToolAnnotations::new().with_read_only(true).destructive());
    /// assert!(!ToolAnnotations::new().with_read_only(true).with_destructive(true).destructive());
    /// ```
    #[must_use]
    pub const fn destructive(&self) -> bool {
        if self.read_only() {
            return false;
        }
        match self.destructive_hint {
            Some(destructive) => destructive,
            None => true,
        }
    }

    /// Whether repeating a call has no further effect: `true` for a read-only tool (whatever
    /// `idempotentHint` says), else the hint, else `false`.
    #[must_use]
    pub const fn idempotent(&self) -> bool {
        if self.read_only() {
            return true;
        }
        matches!(self.idempotent_hint, Some(true))
    }

    /// Whether the tool may reach outside entities: the hint, else `true`.
    #[must_use]
    pub const fn open_world(&self) -> bool {
        match self.open_world_hint {
            Some(open_world) => open_world,
            None => true,
        }
    }

    /// Whether nothing at all is stated: no title and no hint.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.title.is_none()
            && self.read_only_hint.is_none()
            && self.destructive_hint.is_none()
            && self.idempotent_hint.is_none()
            && self.open_world_hint.is_none()
    }

    /// The same annotations with every hint stated at its effective value, as some tool
    /// directories demand on the wire. The title is kept as it is.
    ///
    /// The result means the same to any reader, including one that does not apply the
    /// protocol's precedence itself, and passes [`check`](Self::check): a hint stated beside
    /// `readOnlyHint: true` that means nothing there is written as what it means.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    /// use serde_json::json;
    ///
    /// let read = ToolAnnotations::new().with_read_only(true);
    /// assert_eq!(
    ///     serde_json::to_value(read.explicit())?,
    ///     json!({
    ///         "readOnlyHint": true,
    ///         "destructiveHint": false,
    ///         "idempotentHint": true,
    ///         "openWorldHint": true
    ///     })
    /// );
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub fn explicit(&self) -> Self {
        Self {
            title: self.title.clone(),
            ..self.explicit_hints()
        }
    }

    /// [`explicit`](Self::explicit) without the title, usable in `const`.
    #[must_use]
    pub const fn explicit_hints(&self) -> Self {
        Self::from_values(self.stated().effective())
    }

    /// Whether every hint is stated (the title does not count).
    #[must_use]
    pub const fn is_explicit(&self) -> bool {
        self.read_only_hint.is_some()
            && self.destructive_hint.is_some()
            && self.idempotent_hint.is_some()
            && self.open_world_hint.is_some()
    }
}

/// One of the protocol's tool hints: [`mcp_annotations_rules::Hint`], the one list every
/// package of this project walks, re-exported here.
///
/// ```
/// use mcp_annotations::ToolAnnotations;
/// use mcp_annotations::descriptor::Hint;
///
/// let hints = ToolAnnotations::new().with_read_only(true);
/// let stated: Vec<&str> = Hint::ALL
///     .into_iter()
///     .filter(|hint| hints.hint(*hint).is_some())
///     .map(Hint::wire_name)
///     .collect();
/// assert_eq!(stated, ["readOnlyHint"]);
/// // What a host acts on: the defaults, and what read-only implies.
/// assert!(!hints.effective(Hint::Destructive) && hints.effective(Hint::Idempotent));
/// assert_eq!(Hint::OpenWorld.words(Hint::OpenWorld.default_value()), "open-world");
/// ```
pub use mcp_annotations_rules::Hint;

/// A value for each hint, read and written by [`Hint`]: [`mcp_annotations_rules::ByHint`],
/// re-exported here.
pub use mcp_annotations_rules::ByHint;

impl ToolAnnotations {
    /// The hint as stated (`None`: unset).
    #[must_use]
    pub const fn hint(&self, hint: Hint) -> Option<bool> {
        self.stated().get(hint)
    }

    /// Sets the hint as stated (`None`: unset), for the readers that walk [`Hint::ALL`].
    pub(crate) fn set_hint(&mut self, hint: Hint, value: Option<bool>) {
        let stated = self.stated().with(hint, value);
        let title = self.title.take();
        *self = Self {
            title,
            ..Self::from_stated(stated)
        };
    }

    /// The hint as a host acts on it: the stated value, the protocol's default when unset, and
    /// what `readOnlyHint: true` implies (the same as [`read_only`](Self::read_only) and the
    /// other accessors).
    #[must_use]
    pub const fn effective(&self, hint: Hint) -> bool {
        self.stated().effective().get(hint)
    }

    /// Every hint as stated, in a table by [`Hint`].
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    /// use mcp_annotations::descriptor::Hint;
    ///
    /// let stated = ToolAnnotations::new().with_open_world(false).stated();
    /// assert_eq!(stated[Hint::OpenWorld], Some(false));
    /// assert_eq!(stated[Hint::ReadOnly], None);
    /// ```
    #[must_use]
    pub const fn stated(&self) -> ByHint<Option<bool>> {
        ByHint::splat(None)
            .with(Hint::ReadOnly, self.read_only_hint)
            .with(Hint::Destructive, self.destructive_hint)
            .with(Hint::Idempotent, self.idempotent_hint)
            .with(Hint::OpenWorld, self.open_world_hint)
    }

    /// Annotations with no title that state each hint as `stated` says.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    /// use mcp_annotations::descriptor::{ByHint, Hint};
    ///
    /// let every = ToolAnnotations::from_stated(ByHint::splat(Some(false)));
    /// assert!(every.is_explicit() && !every.read_only() && !every.open_world());
    /// assert_eq!(ToolAnnotations::from_stated(every.stated()), every);
    /// ```
    #[must_use]
    pub const fn from_stated(stated: ByHint<Option<bool>>) -> Self {
        Self {
            title: None,
            read_only_hint: stated.get(Hint::ReadOnly),
            destructive_hint: stated.get(Hint::Destructive),
            idempotent_hint: stated.get(Hint::Idempotent),
            open_world_hint: stated.get(Hint::OpenWorld),
        }
    }

    /// Annotations with no title that state every hint at its value in `hints` (a host's
    /// effective reading, every hint decided).
    #[must_use]
    pub const fn from_values(hints: ByHint<bool>) -> Self {
        Self::from_stated(hints.as_stated())
    }

    /// Whether the tool claims `hint`: its [effective](Self::effective) value is the one a host
    /// trusts ([`Hint::trusted_value`]: read-only, non-destructive, idempotent, closed-world),
    /// the promise its behaviour can break.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    /// use mcp_annotations::descriptor::Hint;
    ///
    /// let lookup = ToolAnnotations::new().with_read_only(true);
    /// // Read-only implies non-destructive and idempotent; the world stays open unless said.
    /// assert!(lookup.claims(Hint::Destructive) && lookup.claims(Hint::Idempotent));
    /// assert!(!lookup.claims(Hint::OpenWorld));
    /// ```
    #[must_use]
    pub const fn claims(&self, hint: Hint) -> bool {
        self.effective(hint) == hint.trusted_value()
    }
}
