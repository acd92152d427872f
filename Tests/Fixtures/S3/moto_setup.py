#!/usr/bin/env python3
"""Prepare a moto S3 server (started with signature checking) for the s3:// source tests.

Start the server first, with exactly three unchecked calls allowed:

    INITIAL_NO_AUTH_ACTION_COUNT=3 python3 -m moto.server -H 127.0.0.1 -p PORT

then run, for example:

    moto_setup.py --endpoint http://127.0.0.1:PORT --bucket photos \\
        --put a.jpg=Tests/Fixtures/gradient.jpg --put-random big.bin=33554432

The script makes three calls that moto does not check (IAM CreateUser, PutUserPolicy
allowing s3:* on *, CreateAccessKey), whatever the number of objects. Everything after
that (CreateBucket, each PutObject) is signed with SigV4 by the new key and checked.
It finally makes sure that checking is on (a request with a wrong secret must get 403)
and prints one JSON line on stdout: {"accessKeyId": ..., "secretAccessKey": ...}.
Standard library only. Run it once per server: the three unchecked calls are spent.
"""
import argparse
import datetime
import hashlib
import hmac
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

REGION = "us-east-1"
# Any well-formed key id will do for the unchecked calls: moto does not look at it then.
UNCHECKED_KEY = ("AKIAIOSFODNN7EXAMPLE", "unchecked")
USER = "darkroom-test"
POLICY = json.dumps({"Version": "2012-10-17",
                     "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]})


def _hmac(key, text):
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def signed_request(endpoint, method, path, service, key, body=b"", headers=None):
    """Send a SigV4-signed request to endpoint+path; return (status, headers, body)."""
    url = urllib.parse.urlsplit(endpoint)
    now = datetime.datetime.now(datetime.timezone.utc)
    amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    payload_hash = hashlib.sha256(body).hexdigest()
    hdrs = {"host": url.netloc, "x-amz-date": amz_date, "x-amz-content-sha256": payload_hash}
    hdrs.update({k.lower(): v for k, v in (headers or {}).items()})
    names = sorted(hdrs)
    canonical = "\n".join([method, path, "",  # path is already URI-encoded; no query string
                           "".join(f"{n}:{hdrs[n].strip()}\n" for n in names),
                           ";".join(names), payload_hash])
    scope = f"{day}/{REGION}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                         hashlib.sha256(canonical.encode()).hexdigest()])
    k = _hmac(("AWS4" + key[1]).encode(), day)
    for part in (REGION, service, "aws4_request"):
        k = _hmac(k, part)
    signature = hmac.new(k, to_sign.encode(), hashlib.sha256).hexdigest()
    hdrs["authorization"] = (f"AWS4-HMAC-SHA256 Credential={key[0]}/{scope}, "
                             f"SignedHeaders={';'.join(names)}, Signature={signature}")
    del hdrs["host"]  # urllib sets Host itself, to the same value
    req = urllib.request.Request(endpoint + path, data=body if method in ("PUT", "POST") else None,
                                 headers=hdrs, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()
    except urllib.error.URLError as err:
        sys.exit(f"moto_setup: {method} {endpoint}{path}: {err.reason}")


def check(what, result, expected=200):
    status, _, body = result
    if status != expected:
        sys.exit(f"moto_setup: {what}: HTTP {status} (wanted {expected}): {body[:500]!r}")
    return body


def iam(endpoint, action, **params):
    """One IAM query-protocol call, signed with the placeholder key (moto does not check it)."""
    form = urllib.parse.urlencode({"Action": action, "Version": "2010-05-08", **params}).encode()
    return check(f"IAM {action}", signed_request(
        endpoint, "POST", "/", "iam", UNCHECKED_KEY, form,
        {"content-type": "application/x-www-form-urlencoded; charset=utf-8"}))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--endpoint", required=True, help="e.g. http://127.0.0.1:PORT")
    ap.add_argument("--bucket", required=True)
    ap.add_argument("--put", action="append", default=[], metavar="KEY=LOCALFILE")
    ap.add_argument("--put-random", action="append", default=[], metavar="KEY=NBYTES",
                    help="upload NBYTES random bytes (the ETag is their MD5)")
    args = ap.parse_args()
    endpoint = args.endpoint.rstrip("/")

    # Read every object first, so that a bad argument fails before the server is touched.
    objects = []
    for spec, is_file in [(s, True) for s in args.put] + [(s, False) for s in args.put_random]:
        name, sep, value = spec.partition("=")
        if not name or not sep:
            ap.error(f"expected KEY=VALUE, got {spec!r}")
        if is_file:
            try:
                with open(value, "rb") as f:
                    objects.append((name, f.read()))
            except OSError as err:
                ap.error(f"--put {spec}: {err}")
        else:
            objects.append((name, os.urandom(int(value))))

    # The three unchecked calls.
    iam(endpoint, "CreateUser", UserName=USER)
    iam(endpoint, "PutUserPolicy", UserName=USER, PolicyName="s3-all", PolicyDocument=POLICY)
    xml = ET.fromstring(iam(endpoint, "CreateAccessKey", UserName=USER))
    key = (xml.findtext(".//{*}AccessKeyId"), xml.findtext(".//{*}SecretAccessKey"))
    if not all(key):
        sys.exit("moto_setup: no access key in the CreateAccessKey answer")

    # From here on every call is signed with the new key, and moto checks it.
    bucket = "/" + urllib.parse.quote(args.bucket)
    check("CreateBucket", signed_request(endpoint, "PUT", bucket, "s3", key))
    for name, data in objects:
        path = bucket + "/" + urllib.parse.quote(name, safe="/~")
        check(f"PutObject {name}", signed_request(
            endpoint, "PUT", path, "s3", key, data,
            # Without an explicit type urllib says form-urlencoded, and moto may parse it as a form.
            {"content-type": "application/octet-stream"}))

    # Signature checking must be on now: a wrong secret has to be refused.
    check("auth self-check (was the server started with INITIAL_NO_AUTH_ACTION_COUNT=3?)",
          signed_request(endpoint, "HEAD", bucket, "s3", (key[0], "wrong" + key[1])), 403)

    print(json.dumps({"accessKeyId": key[0], "secretAccessKey": key[1]}), flush=True)


if __name__ == "__main__":
    main()
