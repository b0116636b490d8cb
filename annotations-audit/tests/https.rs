//! The audit of a remote server over HTTPS, as a directory reviewer runs it: the repository's
//! conformance example served over TLS with a certificate signed by a private CA that this
//! test makes, and asking a bearer token (401 without it). Audited with `--ca-cert` and
//! `--header`, it answers; without the CA, or without the token, the audit says why and exits
//! 3 (could not run); the token appears in no output. A self-signed certificate as `openssl req
//! -x509` makes it, given with `--ca-cert`, is pinned.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

mod common;

use common::audit_binary;

/// The token the endpoint asks for.
const TOKEN: &str = "s3cret-token-for-the-https-test";

/// The conformance example, built beside this package's binaries by `cargo test --workspace`;
/// built here when this package's tests run alone.
fn conformance() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(Path::parent).unwrap();
    let binary = profile
        .join("examples")
        .join(format!("conformance{}", std::env::consts::EXE_SUFFIX));
    if !binary.exists() {
        let built = Command::new(env!("CARGO"))
            .args([
                "build",
                "--quiet",
                "-p",
                "annotations-tests",
                "--example",
                "conformance",
            ])
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .status()
            .unwrap();
        assert!(built.success(), "the conformance example did not build");
    }
    binary
}

/// A private CA and the endpoint's certificate for 127.0.0.1, [::1] and localhost, written in
/// `dir`: (the CA's PEM, the certificate's, its key's).
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
    let mut authority = CertificateParams::new(Vec::<String>::new()).unwrap();
    authority.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    authority
        .distinguished_name
        .push(DnType::CommonName, "annotations-audit test CA");
    authority.key_usages = vec![
        rcgen::KeyUsagePurpose::KeyCertSign,
        rcgen::KeyUsagePurpose::DigitalSignature,
    ];
    let authority = CertifiedIssuer::self_signed(authority, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let names = ["127.0.0.1", "::1", "localhost"]
        .map(str::to_owned)
        .to_vec();
    let certificate = CertificateParams::new(names)
        .unwrap()
        .signed_by(&key, &authority)
        .unwrap();
    let paths = (
        dir.join("ca.pem"),
        dir.join("cert.pem"),
        dir.join("key.pem"),
    );
    std::fs::write(&paths.0, authority.pem()).unwrap();
    std::fs::write(&paths.1, certificate.pem()).unwrap();
    std::fs::write(&paths.2, key.serialize_pem()).unwrap();
    paths
}

/// The endpoint: the conformance example over TLS, asking for [`TOKEN`]; its URL.
struct Endpoint {
    child: Child,
    url: String,
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(cert: &Path, key: &Path) -> Endpoint {
    let mut child = Command::new(conformance())
        .args(["--port", "0", "--bearer", TOKEN, "--tls-cert"])
        .arg(cert)
        .arg("--tls-key")
        .arg(key)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("the endpoint said {line:?}"))
        .to_owned();
    assert!(url.starts_with("https://127.0.0.1:"), "{url}");
    Endpoint { child, url }
}

fn audit(args: &[&str]) -> Output {
    Command::new(audit_binary()).args(args).output().unwrap()
}

/// Whether the token is anywhere in `output`.
fn shows_token(output: &Output) -> bool {
    String::from_utf8_lossy(&output.stdout).contains(TOKEN)
        || String::from_utf8_lossy(&output.stderr).contains(TOKEN)
}

#[test]
fn an_https_endpoint_with_a_private_ca_and_a_token_is_audited() {
    let dir = std::env::temp_dir().join(format!("audit-https-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (ca, cert, key) = certificates(&dir);
    let endpoint = serve(&cert, &key);
    let ca = ca.to_str().unwrap();
    let header = format!("Authorization: Bearer {TOKEN}");

    // With the CA and the token: the listing, audited.
    let output = audit(&[
        "audit",
        "--format",
        "json",
        "--http",
        &endpoint.url,
        "--ca-cert",
        ca,
        "--header",
        &header,
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"test_simple_text"), "{names:?}");
    assert!(!shows_token(&output));

    // The same by name (the certificate names 127.0.0.1, ::1 and localhost).
    let port = endpoint.url.rsplit_once(':').unwrap().1;
    let by_name = format!("https://localhost:{port}");
    let output = audit(&["audit", "--http", &by_name, "--ca-cert", ca, "-H", &header]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // Without the token: the server's 401, said, and status 3 (could not run).
    let output = audit(&["audit", "--http", &endpoint.url, "--ca-cert", ca]);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("HTTP 401"), "{stderr}");
    assert!(stderr.contains("--header"), "{stderr}");

    // A wrong token: refused the same way, and neither token shown.
    let output = audit(&[
        "audit",
        "--http",
        &endpoint.url,
        "--ca-cert",
        ca,
        "--header",
        "Authorization: Bearer wrong-token-never-shown",
    ]);
    assert_eq!(output.status.code(), Some(3));
    assert!(!String::from_utf8_lossy(&output.stderr).contains("wrong-token-never-shown"));

    // Without the CA: the platform's roots do not know the certificate, and the audit says so.
    let output = audit(&["audit", "--http", &endpoint.url, "--header", &header]);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.to_lowercase().contains("certificate"), "{stderr}");
    assert!(!shows_token(&output));

    // A CA file that holds no certificate, and a header without a colon: said before any
    // connection.
    let empty = dir.join("empty.pem");
    std::fs::write(&empty, "").unwrap();
    let output = audit(&[
        "audit",
        "--http",
        &endpoint.url,
        "--ca-cert",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("no PEM certificate"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = audit(&["audit", "--http", &endpoint.url, "--header", TOKEN]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        !shows_token(&output),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // The diff against the live endpoint: from an empty listing, each of its tools added.
    let empty_listing = dir.join("listing.json");
    std::fs::write(&empty_listing, r#"{"tools": []}"#).unwrap();
    let output = audit(&[
        "diff",
        "--format",
        "json",
        empty_listing.to_str().unwrap(),
        "--http",
        &endpoint.url,
        "--ca-cert",
        ca,
        "-H",
        &header,
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let diff: Value = serde_json::from_slice(&output.stdout).unwrap();
    let added = diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|change| change["change"] == "tool added")
        .count();
    assert_eq!(added, names.len(), "{diff}");
    drop(endpoint);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A self-signed certificate as `openssl req -x509` makes one: marked as a CA
/// (`basicConstraints` critical, `CA:TRUE`), naming `localhost` alone.
fn self_signed(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
    let mut params = CertificateParams::new(vec!["localhost".to_owned()]).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    let key = KeyPair::generate().unwrap();
    let certificate = params.self_signed(&key).unwrap();
    let paths = (
        dir.join(format!("{name}.pem")),
        dir.join(format!("{name}-key.pem")),
    );
    std::fs::write(&paths.0, certificate.pem()).unwrap();
    std::fs::write(&paths.1, key.serialize_pem()).unwrap();
    paths
}

/// The certificate people make for a test server, given with `--ca-cert` as curl's `--cacert`
/// takes it: the server presents it as its own, so it is pinned and the audit answers, though
/// webpki alone refuses a CA as a server's certificate and the URL's host (127.0.0.1) is not a
/// name in it. Another such certificate given instead is no pin for this one: refused.
#[test]
fn a_self_signed_certificate_made_as_openssl_makes_it_is_accepted_when_pinned() {
    let dir = std::env::temp_dir().join(format!("audit-https-pinned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cert, key) = self_signed(&dir, "server");
    let (other, _) = self_signed(&dir, "other");
    let endpoint = serve(&cert, &key);
    let header = format!("Authorization: Bearer {TOKEN}");
    let pinned = audit(&[
        "audit",
        "--format",
        "json",
        "--http",
        &endpoint.url,
        "--ca-cert",
        cert.to_str().unwrap(),
        "--header",
        &header,
    ]);
    let stderr = String::from_utf8_lossy(&pinned.stderr).into_owned();
    assert_eq!(pinned.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_slice(&pinned.stdout).unwrap();
    assert!(!report["tools"].as_array().unwrap().is_empty(), "{report}");

    let refused = audit(&[
        "audit",
        "--http",
        &endpoint.url,
        "--ca-cert",
        other.to_str().unwrap(),
        "--header",
        &header,
    ]);
    let stderr = String::from_utf8_lossy(&refused.stderr).into_owned();
    assert_eq!(refused.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("certificate"), "{stderr}");
    drop(endpoint);
    let _ = std::fs::remove_dir_all(&dir);
}
