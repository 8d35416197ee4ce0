// fonts.go: the Go fonts, parsed once and turned into faces per drawing.

package render

import (
	"fmt"
	"math"
	"sync"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
)

// fontStyle names one of the Go fonts used in pictures.
type fontStyle int

const (
	regular fontStyle = iota
	bold
	monoBold
)

var (
	fontsOnce sync.Once
	fonts     [3]*truetype.Font
	fontsErr  error
)

// faceKey identifies a pool of faces.
type faceKey struct {
	style fontStyle
	px    float64
}

// facePools holds, per style and size, faces that are not in use. A face caches the
// glyphs it has drawn, so reusing faces makes text cheap after the first picture.
var facePools sync.Map // faceKey → *sync.Pool

// pooledFace is a face borrowed from a pool; Close gives it back.
type pooledFace struct {
	font.Face
	pool *sync.Pool
}

// Close returns the face to its pool; the face must not be used afterwards.
func (f *pooledFace) Close() error {
	f.pool.Put(f)
	return nil
}

// face returns a face of the style at a height of px pixels, for one goroutine until it
// is closed. Faces are not safe for concurrent use; the parsed fonts behind them are
// shared.
func face(style fontStyle, px float64) (font.Face, error) {
	fontsOnce.Do(func() {
		for i, ttf := range [][]byte{goregular.TTF, gobold.TTF, gomonobold.TTF} {
			f, err := truetype.Parse(ttf)
			if err != nil {
				fontsErr = fmt.Errorf("parse Go font %d: %w", i, err)
				return
			}
			fonts[i] = f
		}
	})
	if fontsErr != nil {
		return nil, fontsErr
	}
	key := faceKey{style, math.Round(px*4) / 4}
	p, ok := facePools.Load(key)
	if !ok {
		pool := &sync.Pool{}
		pool.New = func() any {
			return &pooledFace{
				Face: truetype.NewFace(fonts[key.style], &truetype.Options{Size: key.px, DPI: 72, Hinting: font.HintingNone}),
				pool: pool,
			}
		}
		p, _ = facePools.LoadOrStore(key, pool)
	}
	return p.(*sync.Pool).Get().(*pooledFace), nil
}

// faceSpec is a style and a pixel height.
type faceSpec struct {
	style fontStyle
	px    float64
}

// faces is a set of named faces for one drawing.
type faces map[string]font.Face

// newFaces makes one face per spec.
func newFaces(specs map[string]faceSpec) (faces, error) {
	fs := make(faces, len(specs))
	for name, sp := range specs {
		f, err := face(sp.style, sp.px)
		if err != nil {
			fs.close()
			return nil, err
		}
		fs[name] = f
	}
	return fs, nil
}

func (fs faces) close() {
	for _, f := range fs {
		f.Close()
	}
}
