//! `--ca-cert FILE`: the certificates a user trusts beside the platform's, and the one case
//! where the platform's verifier is wrong for them. A self-signed certificate made with
//! `openssl req -x509` is marked as a CA (`basicConstraints CA:TRUE`), and webpki refuses a CA
//! certificate presented as a server's own ("CaUsedAsEndEntity"), where curl's `--cacert`
//! accepts it. A certificate the user gave that the server presents, byte for byte, as its own
//! is pinned: that is accepted whatever its CA mark or the names in it say (the pin is the
//! bytes; curl would also check the name). Its dates are still checked (webpki checks them
//! first), and the server still proves it holds the certificate's key in every handshake.
//! Every other certificate is judged by the platform's verifier, with the given ones added to
//! its roots. Where the platform's verifier is not webpki (macOS, Windows), a CA-marked
//! certificate may still be refused.

use std::path::Path;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, Error, SignatureScheme};

/// The certificates of the PEM file `path`: refused, naming the file, when it cannot be read or
/// holds none.
pub fn read(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    use rustls::pki_types::pem::PemObject;
    let shown = path.display();
    let pem = std::fs::read(path).map_err(|error| format!("--ca-cert {shown}: {error}"))?;
    let certificates = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| format!("--ca-cert {shown}: not PEM certificates ({error})"))?;
    if certificates.is_empty() {
        return Err(format!("--ca-cert {shown}: no PEM certificate in it"));
    }
    Ok(certificates)
}

/// The TLS settings for a client trusting `certificates` beside the platform's roots, each of
/// them pinned when a server presents it as its own.
pub fn client_config(
    certificates: Vec<CertificateDer<'static>>,
) -> Result<rustls::ClientConfig, String> {
    let provider = rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(super::http::provider()));
    let platform = rustls_platform_verifier::Verifier::new_with_extra_roots(
        certificates.iter().cloned(),
        provider.clone(),
    )
    .map_err(|error| format!("--ca-cert: cannot set up TLS: {error}"))?;
    let verifier = Pinned {
        platform,
        pinned: certificates,
    };
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| format!("cannot set up TLS: {error}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    // What reqwest offers with its own settings: HTTP/2, then HTTP/1.1.
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// The platform's verifier, and the certificates pinned as a server's own.
#[derive(Debug)]
struct Pinned {
    platform: rustls_platform_verifier::Verifier,
    pinned: Vec<CertificateDer<'static>>,
}

/// Whether `error` is one a pinned certificate answers: it is a CA presented as an end
/// entity (said once its dates were checked, before any chain or signature: the pin stands
/// for both), or it does not name the host it was reached at (said once its chain passed).
fn pin_answers(error: &Error) -> bool {
    match error {
        Error::InvalidCertificate(CertificateError::Other(other)) => {
            other.0.downcast_ref::<webpki::Error>() == Some(&webpki::Error::CaUsedAsEndEntity)
        }
        Error::InvalidCertificate(
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
        ) => true,
        _ => false,
    }
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        match self.platform.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            Err(error)
                if pin_answers(&error)
                    && self
                        .pinned
                        .iter()
                        .any(|pinned| pinned.as_ref() == end_entity.as_ref()) =>
            {
                Ok(ServerCertVerified::assertion())
            }
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.platform.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.platform.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.platform.supported_verify_schemes()
    }
}
