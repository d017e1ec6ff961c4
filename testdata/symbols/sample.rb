# Every Ruby construct the index keeps.
module Routing
  class CommandRouter < Base
    def initialize
      @routes = []
    end

    def route(name)
      @routes[name]
    end

    def self.create
      new
    end

    class Route
      def run; end
    end
  end

  class Admin::Panel
    def show; end
  end
end

def helper(x)
  x
end
