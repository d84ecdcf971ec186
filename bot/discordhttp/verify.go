package discordhttp

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/oasisprotocol/curve25519-voi/curve"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// PublicKey is an application's Ed25519 public key made ready to verify
// many signatures: its point is decompressed, and its multiples for the
// verification equation tabulated, once (crypto/ed25519.Verify
// decompresses it and tabulates fewer multiples on every call); with
// curve25519-voi's arithmetic (AVX2 where the processor has it) a
// verification takes about half the time (BenchmarkVerify). Its Verify
// accepts exactly the
// signatures crypto/ed25519.Verify accepts for the same key: cofactorless
// ([S]B − [k]A compared byte for byte with R, so a non-canonical R never
// matches), S ≥ ℓ refused, small-order R allowed. A key crypto/ed25519
// would take but no honest key is (a point of small order, or a
// non-canonical encoding) is refused when the PublicKey is made.
type PublicKey struct {
	// key is the expanded key (about 1.5 KiB: −A and its multiples).
	key *voi.ExpandedPublicKey
	raw [ed25519.PublicKeySize]byte
}

// verifyStdLib are curve25519-voi's verification rules of
// crypto/ed25519 (its preset VerifyOptionsStdLib: cofactorless, small-order
// A and R and non-canonical A allowed, non-canonical R and S refused); the
// key's checks at construction refuse small-order and non-canonical A.
var verifyStdLib = &voi.Options{Verify: voi.VerifyOptionsStdLib}

// Reasons a public key of the right size is refused.
var (
	errKeyNotPoint     = errors.New("not a point of Ed25519")
	errKeySmallOrder   = errors.New("a point of small order, which no key pair has")
	errKeyNonCanonical = errors.New("a non-canonical encoding, which no key pair has")
)

// NewPublicKey makes the PublicKey of key's 32 bytes, or says why they
// are not an application's public key.
func NewPublicKey(key []byte) (*PublicKey, error) {
	if len(key) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("public key: %d bytes, want %d (64 hexadecimal digits)", len(key), ed25519.PublicKeySize)
	}
	var c curve.CompressedEdwardsY
	if _, err := c.SetBytes(key); err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	var p curve.EdwardsPoint
	if _, err := p.SetCompressedY(&c); err != nil {
		return nil, fmt.Errorf("public key: %w", errKeyNotPoint)
	}
	if p.IsSmallOrder() {
		return nil, fmt.Errorf("public key: %w", errKeySmallOrder)
	}
	if !c.IsCanonicalVartime() {
		return nil, fmt.Errorf("public key: %w", errKeyNonCanonical)
	}
	x, err := voi.NewExpandedPublicKey(voi.PublicKey(key))
	if err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	k := &PublicKey{key: x}
	copy(k.raw[:], key)
	return k, nil
}

// ParsePublicKey reads an application's public key as the developer
// portal shows it (64 hexadecimal digits).
func ParsePublicKey(s string) (*PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("public key: not hexadecimal: %w", err)
	}
	return NewPublicKey(b)
}

// Verify reports whether sig is k's signature of message, as
// crypto/ed25519.Verify(k, message, sig) would.
func (k *PublicKey) Verify(message, sig []byte) bool {
	if len(sig) != ed25519.SignatureSize {
		return false
	}
	return voi.VerifyExpandedWithOptions(k.key, message, sig, verifyStdLib)
}

// Bytes are the key's 32 bytes.
func (k *PublicKey) Bytes() []byte { return k.raw[:] }
