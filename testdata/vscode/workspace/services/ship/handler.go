package ship

// Handler serves the shipping API.
type Handler struct {
	client *ShipClient
}
