import TickKit
print("tick")
