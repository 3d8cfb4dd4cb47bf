// SHA-256 against the examples of FIPS 180-4 (NIST's "SHA256.pdf" and "SHA2_Additional.pdf").
#include <doctest/doctest.h>

#include <string>

#include "checker/util/sha256.h"

namespace tilecamp {
namespace {

TEST_CASE("sha256 of the one-block message abc") {
  CHECK(to_hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("sha256 of the empty message") {
  CHECK(to_hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("sha256 of the two-block 448-bit message, whose length needs a block of its own") {
  CHECK(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("sha256 of the 896-bit message") {
  CHECK(to_hex(sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopq"
                      "rsmnopqrstnopqrstu")) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST_CASE("sha256 of one million a") {
  CHECK(to_hex(sha256(std::string(1000000, 'a'))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 fed in pieces of every size gives the digest of the whole") {
  const std::string message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrl"
                              "mnopqrsmnopqrstnopqrstu";
  const Sha256Digest whole = sha256(message);
  for (size_t piece = 1; piece <= message.size(); ++piece) {
    Sha256 hash;
    for (size_t at = 0; at < message.size(); at += piece) hash.update(std::string_view(message).substr(at, piece));
    CHECK_MESSAGE(hash.finish() == whole, "pieces of " << piece << " bytes");
  }
}

}  // namespace
}  // namespace tilecamp
