package components

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// benchAnswer is an answer as models write them: headings, paragraphs
// with emphasis, links and inline code, nested lists, a quote, a table,
// fenced code and math.
var benchAnswer = strings.Repeat(`## Kết quả phân tích

Giá **VNM** tăng *2,4 %* trong tuần, theo [báo cáo](https://example.com/report) và `+"`get_price`"+`.
Tổng lợi nhuận là $\sum_{i=1}^{n} r_i = \frac{a+b}{\sqrt{c^2+d^2}}$ so với kỳ trước.

- Doanh thu: 12.000 tỷ
  - Nội địa: 9.000 tỷ
    - Miền Bắc: *4.000 tỷ*
- Chi phí: ~~11.000~~ 10.500 tỷ

> Lưu ý: số liệu **chưa kiểm toán**.

| Mã | Giá | Thay đổi |
|---|---:|:---:|
| VNM | 82.000 | +2,4 % |
| FPT | 96.000 | -0,8 % |

`+"```go\nfunc total(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n```"+`

$$
x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}
$$

`, 4)

// BenchmarkMarkdown renders an answer of about 4 KB into elements, as each
// delta of a streamed answer's last segment does.
func BenchmarkMarkdown(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchAnswer)))
	for b.Loop() {
		app.Div().Body(Markdown(benchAnswer)...)
	}
}
