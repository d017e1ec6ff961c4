package ship

// ShipClient talks to the shipping service.
type ShipClient struct{}
