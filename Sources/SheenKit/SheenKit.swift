// Placeholder: the UIKit-shaped view layer is being written.
