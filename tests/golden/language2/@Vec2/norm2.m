function n = norm2(obj)
n = sqrt(obj.X^2 + obj.Y^2);
end
