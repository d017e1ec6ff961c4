package cart

// Handler serves the cart's HTTP API.
type Handler struct {
	client *CartClient
}
