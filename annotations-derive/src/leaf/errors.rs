//! The accumulator of a macro's errors: every mistake found is pushed, and all are reported
//! together, so that a user can fix them in one compile. As serde's `Ctxt` guards against, an
//! error must not be lost: dropping the accumulator with an error in it that was never
//! reported panics (a bug of this crate) instead of silently emitting code for input it
//! refused. A leaf: it imports nothing of the crate.

use proc_macro2::TokenStream;

pub(crate) struct Errors {
    combined: Option<syn::Error>,
}

impl Errors {
    pub(crate) fn new() -> Self {
        Errors { combined: None }
    }

    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.combined {
            Some(combined) => combined.combine(error),
            None => self.combined = Some(error),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.combined.is_none()
    }

    /// How many errors were pushed.
    pub(crate) fn len(&self) -> usize {
        self.combined
            .as_ref()
            .map_or(0, |combined| combined.into_iter().count())
    }

    /// `Ok` if nothing was pushed, else one `compile_error!` per error, each at its own span.
    pub(crate) fn check(mut self) -> Result<(), TokenStream> {
        match self.combined.take() {
            None => Ok(()),
            Some(combined) => Err(combined.to_compile_error()),
        }
    }

    /// One `compile_error!` per error (nothing if there are none).
    pub(crate) fn into_compile_errors(self) -> TokenStream {
        self.check().err().unwrap_or_default()
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        if self.combined.is_some() && !std::thread::panicking() {
            panic!("annotations-derive dropped its errors without reporting them");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::leaf::errors::Errors;

    fn error() -> syn::Error {
        syn::Error::new(proc_macro2::Span::call_site(), "a mistake")
    }

    #[test]
    fn reported_errors_are_compile_errors() {
        let mut errors = Errors::new();
        assert!(errors.is_empty());
        errors.push(error());
        errors.push(error());
        let reported = errors.check().unwrap_err().to_string();
        assert_eq!(reported.matches("compile_error").count(), 2);
        assert!(Errors::new().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "dropped its errors without reporting them")]
    fn an_error_never_reported_is_a_bug_that_panics() {
        let mut errors = Errors::new();
        errors.push(error());
        drop(errors);
    }
}
