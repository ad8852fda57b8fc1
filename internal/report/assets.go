package report

import _ "embed"

//go:embed assets/site.css
var siteCSS string

//go:embed assets/site.js
var siteJS string
