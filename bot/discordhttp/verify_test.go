package discordhttp

import (
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// mustPublicKey is NewPublicKey(pub), which must take it.
func mustPublicKey(tb testing.TB, pub ed25519.PublicKey) *PublicKey {
	tb.Helper()
	k, err := NewPublicKey(pub)
	if err != nil {
		tb.Fatalf("NewPublicKey(%x): %v", []byte(pub), err)
	}
	return k
}

func unhex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		tb.Fatalf("hex %q: %v", s, err)
	}
	return b
}

// order is ℓ, the order of Ed25519's base point.
var order, _ = new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)

// leInt and intLE convert between little-endian bytes and integers.
func leInt(b []byte) *big.Int {
	be := bytes.Clone(b)
	for i, j := 0, len(be)-1; i < j; i, j = i+1, j-1 {
		be[i], be[j] = be[j], be[i]
	}
	return new(big.Int).SetBytes(be)
}

func intLE(x *big.Int, n int) []byte {
	b := x.FillBytes(make([]byte, n))
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return b
}

// sigWithS is sig with its S replaced by s (32 bytes, little-endian).
func sigWithS(sig []byte, s *big.Int) []byte {
	return append(bytes.Clone(sig[:32]), intLE(s, 32)...)
}

// identityR is the canonical encoding of the identity point (y = 1), a
// point of small order.
var identityR = func() []byte { b := make([]byte, 32); b[0] = 1; return b }()

// signWithIdentityR is a valid signature of msg by priv whose R is the
// identity, a point of small order: S = k·a mod ℓ with k = H(R ‖ A ‖ M),
// so that [S]B − [k]A is the identity. No signer makes it, and
// crypto/ed25519 accepts it.
func signWithIdentityR(priv ed25519.PrivateKey, msg []byte) []byte {
	h := sha512.Sum512(priv.Seed())
	h[0] &= 248
	h[31] &= 127
	h[31] |= 64
	a := leInt(h[:32])
	kh := sha512.New()
	kh.Write(identityR)
	kh.Write(priv.Public().(ed25519.PublicKey))
	kh.Write(msg)
	k := leInt(kh.Sum(nil))
	s := new(big.Int).Mul(k, a)
	s.Mod(s, order)
	return append(bytes.Clone(identityR), intLE(s, 32)...)
}

// RFC 8032, section 7.1, TEST 1 to 3.
var rfc8032 = []struct{ seed, pub, msg, sig string }{
	{"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
		"e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
	{"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
		"92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
	{"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
		"6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
}

// checkSame fails when k and crypto/ed25519 answer differently for sig
// of msg, and returns their (common) answer.
func checkSame(t *testing.T, what string, k *PublicKey, msg, sig []byte) bool {
	t.Helper()
	want := ed25519.Verify(k.Bytes(), msg, sig)
	if got := k.Verify(msg, sig); got != want {
		t.Errorf("%s: Verify = %v, crypto/ed25519.Verify = %v (key %x, sig %x, message %x)", what, got, want, k.Bytes(), sig, msg)
	}
	return want
}

func TestVerifyRFC8032Vectors(t *testing.T) {
	for n, v := range rfc8032 {
		priv := ed25519.NewKeyFromSeed(unhex(t, v.seed))
		pub, msg, sig := unhex(t, v.pub), unhex(t, v.msg), unhex(t, v.sig)
		if !bytes.Equal(priv.Public().(ed25519.PublicKey), pub) || !bytes.Equal(ed25519.Sign(priv, msg), sig) {
			t.Fatalf("TEST %d: the vector is not RFC 8032's", n+1)
		}
		k := mustPublicKey(t, pub)
		if !bytes.Equal(k.Bytes(), pub) {
			t.Errorf("TEST %d: Bytes() = %x", n+1, k.Bytes())
		}
		if !checkSame(t, "RFC 8032 TEST", k, msg, sig) {
			t.Errorf("TEST %d: refused", n+1)
		}
		// Every bit of the signature matters; so does every bit of the
		// message.
		for i := range len(sig) * 8 {
			bad := bytes.Clone(sig)
			bad[i/8] ^= 1 << (i % 8)
			if checkSame(t, "a bit of the signature flipped", k, msg, bad) {
				t.Errorf("TEST %d: signature with bit %d flipped accepted", n+1, i)
			}
		}
		for i := range len(msg) * 8 {
			bad := bytes.Clone(msg)
			bad[i/8] ^= 1 << (i % 8)
			if checkSame(t, "a bit of the message flipped", k, bad, sig) {
				t.Errorf("TEST %d: message with bit %d flipped accepted", n+1, i)
			}
		}
		if checkSame(t, "a byte more in the message", k, append(bytes.Clone(msg), 0), sig) {
			t.Errorf("TEST %d: longer message accepted", n+1)
		}
	}
}

// Edge cases of the signature (as Wycheproof's EdDSA tests have them),
// each answered as crypto/ed25519 answers it.
func TestVerifyEdgeCasesAsCryptoEd25519(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, 32))
	pub := priv.Public().(ed25519.PublicKey)
	k := mustPublicKey(t, pub)
	msg := []byte(`1700000000{"type":3,"data":{"custom_id":"mark:red:5"}}`)
	sig := ed25519.Sign(priv, msg)
	s := leInt(sig[32:])
	ff := bytes.Repeat([]byte{0xff}, 32)
	cases := []struct {
		name   string
		msg    []byte
		sig    []byte
		accept bool
	}{
		{"valid", msg, sig, true},
		{"empty message, valid", nil, ed25519.Sign(priv, nil), true},
		{"R is the identity (small order), S = k·a", msg, signWithIdentityR(priv, msg), true},
		{"R is the identity, S = k·a + ℓ", msg, sigWithS(signWithIdentityR(priv, msg), new(big.Int).Add(leInt(signWithIdentityR(priv, msg)[32:]), order)), false},
		{"R is the identity encoded with y = 1 + p (non-canonical)", msg, func() []byte {
			sg := signWithIdentityR(priv, msg)
			copy(sg, unhex(t, "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))
			return sg
		}(), false},
		{"R is the identity with the sign bit set (non-canonical)", msg, func() []byte {
			sg := signWithIdentityR(priv, msg)
			sg[31] |= 0x80
			return sg
		}(), false},
		{"S + ℓ (non-canonical S, same point)", msg, sigWithS(sig, new(big.Int).Add(s, order)), false},
		{"S + 2ℓ", msg, sigWithS(sig, new(big.Int).Add(s, new(big.Int).Lsh(order, 1))), false},
		{"S = ℓ", msg, sigWithS(sig, order), false},
		{"S = ℓ − 1", msg, sigWithS(sig, new(big.Int).Sub(order, big.NewInt(1))), false},
		{"S = 0", msg, sigWithS(sig, new(big.Int)), false},
		{"S's top bits set", msg, func() []byte { sg := bytes.Clone(sig); sg[63] |= 0xe0; return sg }(), false},
		{"S all ones", msg, append(bytes.Clone(sig[:32]), ff...), false},
		{"R all zeros", msg, append(make([]byte, 32), sig[32:]...), false},
		{"R all ones", msg, append(bytes.Clone(ff), sig[32:]...), false},
		{"R not a point", msg, append(unhex(t, "0200000000000000000000000000000000000000000000000000000000000000"), sig[32:]...), false},
		{"all zeros", msg, make([]byte, 64), false},
		{"R and S swapped", msg, append(bytes.Clone(sig[32:]), sig[:32]...), false},
		{"empty signature", msg, nil, false},
		{"63 bytes", msg, sig[:63], false},
		{"65 bytes", msg, append(bytes.Clone(sig), 0), false},
		{"128 bytes", msg, append(bytes.Clone(sig), sig...), false},
		{"32 bytes", msg, sig[:32], false},
		{"message truncated", msg[:len(msg)-1], sig, false},
		{"message empty", nil, sig, false},
	}
	for _, c := range cases {
		if got := checkSame(t, c.name, k, c.msg, c.sig); got != c.accept {
			t.Errorf("%s: crypto/ed25519 says %v, the case wants %v", c.name, got, c.accept)
		}
	}
}

func TestNewPublicKeyRefusesKeysNoKeyPairHas(t *testing.T) {
	cases := []struct {
		name, key string
		want      error
	}{
		// The points of small order, and their non-canonical encodings.
		{"identity", "0100000000000000000000000000000000000000000000000000000000000000", errKeySmallOrder},
		{"identity, sign bit set", "0100000000000000000000000000000000000000000000000000000000000080", errKeySmallOrder},
		{"identity, y = 1 + p", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", errKeySmallOrder},
		{"order 2", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", errKeySmallOrder},
		{"order 2, sign bit set", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", errKeySmallOrder},
		{"order 4", "0000000000000000000000000000000000000000000000000000000000000000", errKeySmallOrder},
		{"order 4, negated", "0000000000000000000000000000000000000000000000000000000000000080", errKeySmallOrder},
		{"order 4, y = p", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", errKeySmallOrder},
		{"order 8", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", errKeySmallOrder},
		{"order 8, negated", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", errKeySmallOrder},
		{"order 8, another", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", errKeySmallOrder},
		{"order 8, another negated", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", errKeySmallOrder},
		// A point of large order encoded with y = 3 + p.
		{"non-canonical y", "f0ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", errKeyNonCanonical},
		// y = 2 is no point's.
		{"not a point", "0200000000000000000000000000000000000000000000000000000000000000", errKeyNotPoint},
		{"not a point, y = 2 + p", "efffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", errKeyNotPoint},
	}
	for _, c := range cases {
		_, err := ParsePublicKey(c.key)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: ParsePublicKey(%s) = %v, want %v", c.name, c.key, err, c.want)
		}
	}
	// crypto/ed25519 takes the identity as a key, and then a signature
	// (R the identity, S = 0) of every message: refused at the start.
	for _, msg := range []string{"", "anything", `{"type":1}`} {
		if !ed25519.Verify(unhex(t, cases[0].key), []byte(msg), append(bytes.Clone(identityR), make([]byte, 32)...)) {
			t.Fatalf("crypto/ed25519 refuses the identity's forged signature of %q: this test's premise is wrong", msg)
		}
	}
	for _, c := range []struct{ key, want string }{
		{"abcd", "public key: 2 bytes, want 32 (64 hexadecimal digits)"},
		{strings.Repeat("ab", 33), "public key: 33 bytes, want 32 (64 hexadecimal digits)"},
		{strings.Repeat("x", 64), "public key: not hexadecimal: encoding/hex: invalid byte: U+0078 'x'"},
		{"", "public key: 0 bytes, want 32 (64 hexadecimal digits)"},
		{cases[0].key, "public key: a point of small order, which no key pair has"},
	} {
		if _, err := ParsePublicKey(c.key); err == nil || err.Error() != c.want {
			t.Errorf("ParsePublicKey(%q) = %v, want %q", c.key, err, c.want)
		}
	}
}

// vectorCase is one signature of the stored test vectors.
type vectorCase struct {
	name          string
	pub, msg, sig []byte
	// valid is the vectors' own verdict where they give one for
	// crypto/ed25519's rules (Wycheproof's "valid"/"invalid").
	valid *bool
}

func readGzipJSON(t *testing.T, name string, v any) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "ed25519", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(z).Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// storedVectors are the cases of testdata/ed25519 (see its README).
func storedVectors(t *testing.T) []vectorCase {
	var out []vectorCase
	var wp struct {
		TestGroups []struct {
			Key   struct{ Pk string } `json:"key"`
			Tests []struct {
				TcID             int    `json:"tcId"`
				Comment          string `json:"comment"`
				Msg, Sig, Result string
			} `json:"tests"`
		} `json:"testGroups"`
	}
	readGzipJSON(t, "eddsa_test.json.gz", &wp)
	for _, g := range wp.TestGroups {
		for _, c := range g.Tests {
			valid := c.Result == "valid"
			out = append(out, vectorCase{name: "wycheproof " + c.Comment, pub: unhex(t, g.Key.Pk), msg: unhex(t, c.Msg), sig: unhex(t, c.Sig), valid: &valid})
		}
	}
	var c2sp []struct{ A, R, S, M string }
	readGzipJSON(t, "ed25519vectors.json.gz", &c2sp)
	for _, c := range c2sp {
		out = append(out, vectorCase{name: "ed25519vectors " + c.M, pub: unhex(t, c.A), msg: []byte(c.M), sig: append(unhex(t, c.R), unhex(t, c.S)...)})
	}
	var spec []struct {
		Message string `json:"message"`
		PubKey  string `json:"pub_key"`
		Sig     string `json:"signature"`
	}
	readGzipJSON(t, "speccheck_cases.json.gz", &spec)
	for i, c := range spec {
		out = append(out, vectorCase{name: "speccheck " + string(rune('0'+i%10)), pub: unhex(t, c.PubKey), msg: unhex(t, c.Message), sig: unhex(t, c.Sig)})
	}
	return out
}

// Wycheproof's EdDSA tests, the C2SP edge cases (small-order and mixed
// A and R, non-canonical encodings) and ed25519-speccheck's cases: where
// NewPublicKey takes the key, Verify answers as crypto/ed25519 does;
// where it refuses the key, the key is of small order, non-canonical or
// no point.
func TestVerifyStoredVectorsAsCryptoEd25519(t *testing.T) {
	var compared, accepted, refusedKeys, refusedCryptoTakes int
	for _, c := range storedVectors(t) {
		want := ed25519.Verify(c.pub, c.msg, c.sig)
		if c.valid != nil && *c.valid != want {
			t.Fatalf("%s: crypto/ed25519 says %v, the vector %v: the vectors are misread", c.name, want, *c.valid)
		}
		k, err := NewPublicKey(c.pub)
		if err != nil {
			if !errors.Is(err, errKeySmallOrder) && !errors.Is(err, errKeyNonCanonical) && !errors.Is(err, errKeyNotPoint) {
				t.Errorf("%s: key %x refused: %v", c.name, c.pub, err)
			}
			if errors.Is(err, errKeyNotPoint) && want {
				t.Errorf("%s: key %x is no point, and crypto/ed25519 takes its signature", c.name, c.pub)
			}
			refusedKeys++
			if want {
				refusedCryptoTakes++
			}
			continue
		}
		if checkSame(t, c.name, k, c.msg, c.sig) {
			accepted++
		}
		compared++
	}
	t.Logf("%d signatures compared (%d accepted), %d with keys refused (crypto/ed25519 takes %d of these)", compared, accepted, refusedKeys, refusedCryptoTakes)
	// The files hold 145 + 768 + 12 cases.
	if compared < 200 || accepted < 50 || refusedKeys == 0 {
		t.Errorf("%d compared, %d accepted, %d keys refused: the vectors are not all read", compared, accepted, refusedKeys)
	}
}

// The endpoint verifies its requests concurrently with the one key: its
// tables are only read (go test -race would see a write).
func TestPublicKeyVerifiesConcurrently(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, 32))
	k := mustPublicKey(t, priv.Public().(ed25519.PublicKey))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				msg := []byte(strconv.Itoa(g*1000 + i))
				sig := ed25519.Sign(priv, msg)
				if !k.Verify(msg, sig) {
					t.Errorf("goroutine %d: signature %d refused", g, i)
				}
				sig[i%64] ^= 4
				if k.Verify(msg, sig) {
					t.Errorf("goroutine %d: altered signature %d accepted", g, i)
				}
			}
		})
	}
	wg.Wait()
}

// FuzzVerifyAsCryptoEd25519 compares Verify with crypto/ed25519.Verify on
// keys made from seed, signatures of msg mutated as op says, and keys
// mutated too.
func FuzzVerifyAsCryptoEd25519(f *testing.F) {
	f.Add([]byte("seed"), []byte(`{"type":3}`), uint8(0), uint16(0), uint8(0))
	f.Add([]byte("seed"), []byte(""), uint8(1), uint16(40), uint8(0x80))
	f.Add([]byte{7}, []byte("1700000000{}"), uint8(2), uint16(0), uint8(1))
	f.Add([]byte{9}, []byte("x"), uint8(3), uint16(3), uint8(9))
	f.Add([]byte{1, 2}, []byte("m"), uint8(4), uint16(63), uint8(0x20))
	f.Add([]byte{3}, []byte("m"), uint8(5), uint16(5), uint8(1))
	f.Add([]byte{4}, []byte("m"), uint8(6), uint16(31), uint8(0x80))
	f.Add([]byte{5}, []byte("m"), uint8(7), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, seed, msg []byte, op uint8, at uint16, x uint8) {
		var s [32]byte
		copy(s[:], seed)
		priv := ed25519.NewKeyFromSeed(s[:])
		pub := priv.Public().(ed25519.PublicKey)
		sig := ed25519.Sign(priv, msg)
		switch op % 9 {
		case 0: // as signed
		case 1: // a byte of the signature changed
			sig[int(at)%64] ^= max(x, 1)
		case 2: // a byte of the message changed, or one more
			if len(msg) > 0 {
				msg = bytes.Clone(msg)
				msg[int(at)%len(msg)] ^= max(x, 1)
			} else {
				msg = []byte{x}
			}
		case 3: // S + nℓ (n ≤ 14: 15ℓ < 2²⁵⁶)
			sig = sigWithS(sig, new(big.Int).Add(leInt(sig[32:]), new(big.Int).Mul(order, big.NewInt(int64(x%14)+1))))
		case 4: // the length changed
			n := int(at) % 129
			if n == 64 {
				n = 65
			}
			sig = append(sig, sig...)[:n]
		case 5: // R the identity, S = k·a (+ a small change)
			sig = signWithIdentityR(priv, msg)
			sig[32+int(at)%32] ^= x
		case 6: // R replaced by the key's bytes changed
			copy(sig, pub)
			sig[int(at)%32] ^= x
		case 7: // random bytes
			r := rand.New(rand.NewPCG(uint64(at), uint64(x)))
			for i := range sig {
				sig[i] = byte(r.Uint32())
			}
			sig[63] &= 0x1f
		case 8: // the key changed
			pub = bytes.Clone(pub)
			pub[int(at)%32] ^= max(x, 1)
		}
		k, err := NewPublicKey(pub)
		if err != nil {
			if !errors.Is(err, errKeySmallOrder) && !errors.Is(err, errKeyNonCanonical) && !errors.Is(err, errKeyNotPoint) {
				t.Fatalf("key %x refused: %v", []byte(pub), err)
			}
			if op%9 != 8 {
				t.Fatalf("an honest key %x refused: %v", []byte(pub), err)
			}
			return
		}
		got, want := k.Verify(msg, sig), ed25519.Verify(pub, msg, sig)
		if got != want {
			t.Fatalf("op %d: Verify = %v, crypto/ed25519.Verify = %v (key %x, sig %x, message %x)", op%9, got, want, []byte(pub), sig, msg)
		}
		if op%9 == 0 && !got {
			t.Fatalf("an honest signature refused")
		}
	})
}

// BenchmarkVerify verifies a click-sized signed body with
// crypto/ed25519.Verify (which decompresses the key on every call) and
// with PublicKey.Verify.
func BenchmarkVerify(b *testing.B) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{2}, 32))
	pub := priv.Public().(ed25519.PublicKey)
	msg := make([]byte, 1700)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range msg {
		msg[i] = 'a' + byte(r.IntN(26))
	}
	sig := ed25519.Sign(priv, msg)
	b.Run("crypto-ed25519", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !ed25519.Verify(pub, msg, sig) {
				b.Fatal("refused")
			}
		}
	})
	k := mustPublicKey(b, pub)
	b.Run("PublicKey", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !k.Verify(msg, sig) {
				b.Fatal("refused")
			}
		}
	})
}
