// fonts.go: the Go fonts, parsed once and turned into faces per drawing.

package render

import (
	"fmt"
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

// face returns a new face of the style at a height of px pixels. Faces cache glyphs
// and are not safe for concurrent use, so each drawing makes its own; the parsed
// fonts behind them are shared.
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
	return truetype.NewFace(fonts[style], &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingFull}), nil
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
